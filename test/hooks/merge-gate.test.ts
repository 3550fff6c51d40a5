/**
 * Merges, rebases and cherry-picks through real git runs with the hooks `findings init`
 * installs (docs/hooks.md, "What a change can and cannot do to its own judgment"): a violation
 * the commit introduces blocks; one only carried over from a parent's version is a warning that
 * says why; a conflict-free merge is judged by the pre-merge-commit hook.
 */
import { describe, expect, it } from 'vitest';
import type { TestRepo } from '../helpers/repo.js';
import { commit, constraint, fixture, gitRun, hookedRepo, stageIndex } from './setup.js';

const BASE = 'one\ntwo\nthree\n';

/** A hooked repository with an active `eval(` constraint, `main` and `side` editing line 2 of a.js differently. */
async function conflicting(sideLine: string, mainLine = 'two-main'): Promise<TestRepo> {
  const repo = await hookedRepo({ 'a.js': BASE });
  stageIndex(repo, constraint('active'));
  repo.git('commit', '-q', '--no-verify', '-m', 'index');
  repo.git('checkout', '-q', '-b', 'side');
  repo.write('a.js', `one\n${sideLine}\nthree\n`);
  repo.commitAll('side'); // --no-verify: a side branch may already carry a violation
  repo.git('checkout', '-q', 'main');
  repo.write('a.js', `one\n${mainLine}\nthree\n`);
  repo.commitAll('main');
  return repo;
}

/** Writes the resolution of a.js and stages it. */
function resolve(repo: TestRepo, text: string): void {
  repo.write('a.js', text);
  repo.git('add', 'a.js');
}

describe('conflict resolutions', () => {
  it('a violation the resolution introduces (in neither parent) blocks the merge commit', async () => {
    const repo = await conflicting('two-side');
    expect(gitRun(repo, ['merge', '-q', 'side']).code).not.toBe(0);
    resolve(repo, 'one\ntwo-main\ntwo-side\nconst x = eval(y);\nthree\n');
    const r = commit(repo, ['--no-edit']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('a.js:4:');
    expect(r.stdout).toContain('this blocks');
    expect(r.stdout).toContain('introduced by this merge');
  });

  it('a violation only inherited from a parent is a warning that says why it does not block', async () => {
    const repo = await conflicting('const s = eval(side);');
    expect(gitRun(repo, ['merge', '-q', 'side']).code).not.toBe(0);
    resolve(repo, 'one\ntwo-main\nconst s = eval(side);\nthree\n');
    const r = commit(repo, ['--no-edit']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('a.js:3:');
    expect(r.stdout).toContain('warning');
    expect(r.stdout).toMatch(/inherited from MERGE_HEAD \([0-9a-f]{12}\)/);
    expect(r.stdout).not.toContain('this blocks');
  });

  it('a cherry-pick resolution that introduces a violation is blocked', async () => {
    const repo = await conflicting('two-side');
    expect(gitRun(repo, ['cherry-pick', 'side']).code).not.toBe(0);
    resolve(repo, 'one\ntwo-main\neval(both)\nthree\n');
    const r = commit(repo, ['--no-edit']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('introduced by this cherry-pick');
  });

  it('a rebase resolution that introduces a violation is blocked; the picked commit counts as a parent', async () => {
    const repo = await conflicting('const s = eval(side);');
    repo.git('checkout', '-q', 'side');
    expect(gitRun(repo, ['rebase', 'main']).code).not.toBe(0);
    resolve(repo, 'one\ntwo-main\nconst s = eval(side);\neval(new)\nthree\n');
    const r = gitRun(repo, ['commit', '-q', '-m', 'resolved']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('a.js:4:');
    expect(r.stdout).toContain('introduced by this rebase');
    expect(r.stdout).toMatch(/a\.js:3:.*warning/);
  });
});

describe('conflict-free merges (pre-merge-commit)', () => {
  it('findings init installs the pre-merge-commit hook', async () => {
    const repo = await hookedRepo();
    expect(repo.read('.husky/pre-merge-commit')).toMatch(/"\$f" hook pre-merge-commit\n$/);
  });

  it('a clean merge=union that leaves two active lines with one dedup_key is stopped', async () => {
    const repo = await hookedRepo();
    const [one, two] = fixture('registry-duplicate.jsonl').split('\n');
    repo.write('.agents/findings/registry.jsonl', '');
    repo.commitAll('empty registry');
    repo.git('checkout', '-q', '-b', 'left');
    repo.write('.agents/findings/registry.jsonl', `${one}\n`);
    repo.commitAll('left');
    repo.git('checkout', '-q', 'main');
    repo.write('.agents/findings/registry.jsonl', `${two}\n`);
    repo.commitAll('right');
    const r = gitRun(repo, ['merge', '--no-edit', 'left']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toMatch(/registry\.jsonl:\d+.*dedup_key/);
  });

  it("a clean merge that only carries a parent's violation over goes through with a warning", async () => {
    const repo = await hookedRepo({ 'a.js': BASE });
    stageIndex(repo, constraint('active'));
    repo.git('commit', '-q', '--no-verify', '-m', 'index');
    repo.git('checkout', '-q', '-b', 'side');
    repo.write('b.js', 'eval(side)\n');
    repo.commitAll('side');
    repo.git('checkout', '-q', 'main');
    repo.write('c.js', 'ok\n');
    repo.commitAll('main');
    const r = gitRun(repo, ['merge', '--no-edit', 'side']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/b\.js:1:.*warning/);
    expect(r.stdout).toContain('inherited from');
  });
});
