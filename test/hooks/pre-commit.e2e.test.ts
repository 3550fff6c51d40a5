/** Commits through the installed husky hook in real temp repositories, asserting git's exit status (docs/hooks.md). */
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commit, constraint, fixture, head, hookedRepo, stageIndex } from './setup.js';

const SAFE = 'export const x = 1;\n';
const BAD = 'export const y = eval("1");\n';

describe('pre-commit through husky', () => {
  it('a shadow constraint warns and the commit succeeds; an active one blocks', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, constraint('shadow', { status: 'shadow' }));
    repo.write('a.js', BAD);
    repo.git('add', 'a.js');
    const ok = commit(repo, []);
    expect(ok.code).toBe(0);
    expect(ok.stdout + ok.stderr).toContain('a.js:1:18  warning');

    // The checklist item is read from the finding artifact (the index has no such key), from the staged content.
    repo.write('.agents/findings/active.md', '---\nid: "active"\nchecklist_item: "Checklist of active"\n---\n');
    repo.git('add', '.agents/findings/active.md');
    commit(repo, ['--no-verify']);
    stageIndex(repo, constraint('active'));
    repo.write('b.js', BAD);
    repo.git('add', 'b.js');
    const before = head(repo);
    const blocked = commit(repo, []);
    expect(blocked.code).not.toBe(0);
    expect(blocked.stdout).toContain('b.js:1:18  error  Title of active (matched "eval(")  constraint/active');
    expect(blocked.stdout).toContain('checklist: Checklist of active');
    expect(blocked.stdout).toContain('git commit --no-verify');
    expect(blocked.stdout).toContain('FINDINGS_SKIP=active');
    expect(blocked.stdout).toMatch(/findings explain active\n/);
    expect(head(repo)).toBe(before);
  });

  it('judges a partially staged file by its staged content, both ways', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, constraint('active'));
    repo.write('a.js', SAFE);
    repo.git('add', 'a.js');
    repo.write('a.js', BAD); // dirty working tree, clean index
    expect(commit(repo, []).code).toBe(0);

    repo.write('a.js', SAFE + BAD);
    repo.git('add', 'a.js');
    repo.write('a.js', SAFE); // clean working tree, bad index
    expect(commit(repo, []).code).not.toBe(0);
  });

  it('git commit -a and git commit <path> check what they will really commit (GIT_INDEX_FILE)', async () => {
    const repo = await hookedRepo({ 'a.js': SAFE, 'b.js': SAFE });
    stageIndex(repo, constraint('active'));
    repo.git('add', 'a.js', 'b.js');
    expect(commit(repo, []).code).toBe(0);

    // b.js staged with a violation; committing only a.js must pass…
    repo.write('b.js', BAD);
    repo.git('add', 'b.js');
    repo.write('a.js', `${SAFE}// more\n`);
    expect(commit(repo, ['a.js']).code).toBe(0);
    // …and committing a.js with a violation in the working tree must block, though the index is clean for it.
    repo.write('a.js', BAD);
    const r = commit(repo, ['a.js']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('a.js:1:18');
    expect(r.stdout).not.toContain('b.js');

    // commit -a picks up the unstaged violation in a.js.
    repo.git('reset', '-q', 'b.js');
    repo.write('b.js', SAFE);
    const all = commit(repo, ['-a']);
    expect(all.code).not.toBe(0);
    expect(all.stdout).toContain('a.js:1:18');
  });

  it('renames are checked under the new path; added-lines scope ignores moved legacy lines', async () => {
    const repo = await hookedRepo({ 'old.js': BAD });
    repo.commitAll('legacy');
    stageIndex(repo, constraint('active'));
    repo.git('mv', 'old.js', 'new.js');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('new.js:1:18');

    stageIndex(repo, constraint('active', { scope: 'added-lines' }));
    expect(commit(repo, []).code).toBe(0);
    repo.write('new.js', `${BAD}const z = 2;\n`);
    repo.git('add', 'new.js');
    expect(commit(repo, []).code).toBe(0); // only a clean line was added
    repo.write('new.js', `${BAD}const z = 2;\n${BAD}`);
    repo.git('add', 'new.js');
    const added = commit(repo, []);
    expect(added.code).not.toBe(0);
    expect(added.stdout).toContain('new.js:3:18');
    expect(added.stdout).not.toContain('new.js:1:18');
  });

  it('skips deletions, binary files and submodules; checks symlinks as their link text', async () => {
    const repo = await hookedRepo({ 'gone.js': BAD, 'target.txt': BAD });
    repo.commitAll('base');
    stageIndex(repo, constraint('active'));
    repo.git('rm', '-q', 'gone.js');
    // Binary: a NUL byte and not valid UTF-8 (0xff); NULs alone do not make a file binary.
    repo.write('bin.js', Buffer.concat([Buffer.from('eval(1)\0'), Buffer.alloc(16), Buffer.from([0xff])]));
    repo.git('add', 'bin.js');
    // A gitlink (mode 160000) at a .js path: a submodule is not content of this repository.
    repo.git('update-index', '--add', '--cacheinfo', `160000,${head(repo)},sub.js`);
    // The link's target holds a violation but the link text does not: never followed.
    symlinkSync('target.txt', path.join(repo.root, 'link-ok.js'));
    repo.git('add', 'link-ok.js');
    const ok = commit(repo, []);
    expect(ok.code).toBe(0);
    // Only the binary file's warning: an active constraint covers it and it was not read.
    expect(ok.stdout).toMatch(/^bin\.js\s+warning\s+not checked: the file is binary/);
    expect(ok.stdout).not.toMatch(/\s+error\s+/);
    expect(repo.git('ls-files', '-s', 'sub.js')).toMatch(/^160000 /);

    symlinkSync('eval(x)', path.join(repo.root, 'link-bad.js'));
    repo.git('add', 'link-bad.js');
    const bad = commit(repo, []);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toContain('link-bad.js:1:1');
  });

  it('handles names with spaces, quotes and non-ASCII characters', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, constraint('active', { scope: 'added-lines' }), constraint('shadow', { status: 'shadow', pattern: 'TODO' }));
    const name = 'dir with space/é "ü" name.js';
    repo.write(name, `// TODO\n${BAD}`);
    repo.git('add', '.');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain(`${name}:2:18  error`);
    expect(r.stdout).toContain(`${name}:1:4  warning`);
  });

  it("works for an empty repository's first commit", async () => {
    const repo = await hookedRepo({}, { commitLayout: false });
    expect(head(repo)).toBeNull();
    stageIndex(repo, constraint('active'));
    repo.write('a.js', BAD);
    repo.git('add', 'a.js');
    expect(commit(repo, []).code).not.toBe(0);
    repo.write('a.js', SAFE);
    repo.git('add', 'a.js');
    expect(commit(repo, []).code).toBe(0);
  });

  it('--no-verify, FINDINGS_SKIP=<id>, FINDINGS_SKIP=all and HUSKY=0 bypass', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, constraint('active'), constraint('other', { pattern: 'never-matches-anything' }));
    repo.write('a.js', BAD);
    repo.git('add', '.');
    expect(commit(repo, []).code).not.toBe(0);
    expect(commit(repo, [], { FINDINGS_SKIP: 'other' }).code).not.toBe(0);
    expect(commit(repo, [], { FINDINGS_SKIP: 'other,active' }).code).toBe(0);
    repo.write('b.js', BAD);
    repo.git('add', 'b.js');
    expect(commit(repo, [], { FINDINGS_SKIP: 'all' }).code).toBe(0);
    repo.write('c.js', BAD);
    repo.git('add', 'c.js');
    expect(commit(repo, [], { HUSKY: '0' }).code).toBe(0);
    repo.write('d.js', BAD);
    repo.git('add', 'd.js');
    expect(commit(repo, ['--no-verify']).code).toBe(0);
  });

  it('a catastrophic pattern blocks promptly when active and warns when shadow', async () => {
    const repo = await hookedRepo();
    const line = `${'a'.repeat(5000)}!\n`;
    stageIndex(repo, constraint('redos', { pattern: '(a+)+$', globs: ['**/*.txt'] }));
    repo.write('long.txt', line);
    repo.git('add', 'long.txt');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('could not be evaluated: pattern is unsafe');
    expect(r.stdout).toContain('constraint/redos');
    stageIndex(repo, constraint('redos', { pattern: '(a+)+$', globs: ['**/*.txt'], status: 'shadow' }));
    const w = commit(repo, []);
    expect(w.code).toBe(0);
    expect(w.stdout).toContain('warning');
  });

  it('refuses a staged registry with a duplicate dedup_key', async () => {
    const repo = await hookedRepo();
    repo.write('.agents/findings/registry.jsonl', fixture('registry-duplicate.jsonl'));
    repo.git('add', '.agents/findings/registry.jsonl');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toMatch(/registry\.jsonl:2.*dedup_key/);
  });

  it('during a merge, a violation the resolution introduces still blocks (test/hooks/merge-gate.test.ts has the rest)', async () => {
    const repo = await hookedRepo({ 'a.js': SAFE });
    repo.commitAll('base');
    repo.git('checkout', '-q', '-b', 'side');
    repo.write('a.js', 'side\n');
    repo.commitAll('side');
    repo.git('checkout', '-q', 'main');
    repo.write('a.js', 'main\n');
    repo.commitAll('main');
    expect(repo.tryGit(['merge', '-q', 'side']).code).not.toBe(0); // conflict: MERGE_HEAD exists
    stageIndex(repo, constraint('active'));
    repo.write('a.js', BAD);
    repo.git('add', 'a.js');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('merge is in progress');
    expect(r.stdout).toContain('introduced by this merge');
  });
});
