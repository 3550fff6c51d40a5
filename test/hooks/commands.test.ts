/** `findings check` modes and exit codes, pre-push through a real remote, init idempotence, doctor, compiled-output drift. */
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PACKAGE_ROOT, runFindings, spawnFindings, tempDir } from '../helpers/repo.js';
import { commit, constraint, fixture, gitRun, hookedRepo, hookEnv, indexJson, stageIndex } from './setup.js';

const BAD = 'export const y = eval("1");\n';

describe('findings check', () => {
  it('missing index: exit 0 and one line; invalid index: exit 2 with the reason', async () => {
    const repo = makeRepo({ 'a.js': BAD });
    repo.git('add', 'a.js');
    const none = await runFindings(['check'], { cwd: repo.root });
    expect(none.code).toBe(0);
    expect(none.stdout.trim().split('\n')).toHaveLength(1);
    expect(none.stdout).toContain('no constraint index');
    repo.write('.agents/constraints/index.json', '{ nope');
    repo.git('add', '.agents/constraints/index.json');
    const bad = await runFindings(['check'], { cwd: repo.root });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain('constraint-index/invalid-json');
    repo.write('.agents/constraints/index.json', '{"version":1,"constraints":[{"id":"x"}]}');
    repo.git('add', '.agents/constraints/index.json');
    const schema = await runFindings(['check'], { cwd: repo.root });
    expect(schema.code).toBe(2);
    expect(schema.stdout).toContain('missing required field');
  });

  it('reads the index from the checked source: staged, working tree for --all, to-ref for a range', async () => {
    const repo = makeRepo({ 'legacy.js': BAD });
    const base = repo.commitAll('legacy');
    repo.write('.agents/constraints/index.json', indexJson(constraint('active')));
    // Not staged: --staged sees no index, --all (working-tree index) finds the legacy hit.
    expect((await runFindings(['check', '--staged'], { cwd: repo.root })).stdout).toContain('no constraint index');
    const all = await runFindings(['check', '--all', '--format', 'json'], { cwd: repo.root });
    expect(all.code).toBe(1);
    expect(JSON.parse(all.stdout)).toMatchObject([
      { file: 'legacy.js', line: 1, column: 18, severity: 'error', ruleId: 'constraint/active' },
    ]);

    repo.write('new.js', BAD);
    const tip = repo.commitAll('tip with index');
    repo.write('.agents/constraints/index.json', indexJson(constraint('active', { status: 'shadow' })));
    const range = await runFindings(['check', '--from-ref', base, '--to-ref', tip, '--format', 'json'], { cwd: repo.root });
    expect(range.code).toBe(1); // active at the to-ref, whatever the working tree says
    expect((JSON.parse(range.stdout) as { file: string }[]).map((d) => d.file)).toEqual(['new.js']);
    expect((await runFindings(['check', '--all', '--staged'], { cwd: repo.root })).code).toBe(2);
    expect((await runFindings(['check', '--from-ref', 'nope'], { cwd: repo.root })).code).toBe(2);
  });

  it('prints SARIF and GitHub annotations through the bin', async () => {
    const repo = makeRepo({ 'a.js': BAD });
    stageIndex(repo, constraint('active'));
    repo.git('add', 'a.js');
    const sarif = await spawnFindings(['check', '--format', 'sarif'], { cwd: repo.root });
    expect(sarif.code).toBe(1);
    expect(JSON.parse(sarif.stdout).runs[0].results[0]).toMatchObject({ ruleId: 'active', level: 'error' });
    const gh = await spawnFindings(['check', '--format', 'github'], { cwd: repo.root });
    expect(gh.stdout).toMatch(/^::error file=a\.js,line=1,col=18,title=constraint\/active::Title of active/);
  });
});

describe('findings hook pre-push', () => {
  it('checks pushed ranges, compares a new branch with the remote default branch, skips deletions', async () => {
    const remote = tempDir('findings-remote-');
    const repo = await hookedRepo({ 'legacy.js': BAD });
    gitRun(repo, ['init', '-q', '--bare', remote]);
    repo.git('remote', 'add', 'origin', remote);
    stageIndex(repo, constraint('active'));
    repo.git('commit', '-q', '--no-verify', '-m', 'index + legacy');
    expect(gitRun(repo, ['push', '-q', '--no-verify', 'origin', 'main']).code).toBe(0);

    repo.write('clean.js', 'ok\n');
    repo.commitAll('clean');
    expect(gitRun(repo, ['push', '-q', 'origin', 'main']).code).toBe(0); // legacy.js is not in the range

    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('bad.js', BAD);
    repo.commitAll('bad');
    const r = gitRun(repo, ['push', '-q', 'origin', 'feature']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('bad.js:1:18  error');
    expect(r.stdout).toContain('git push --no-verify');
    expect(r.stdout).not.toContain('legacy.js');
    expect(gitRun(repo, ['push', '-q', '--no-verify', 'origin', 'feature']).code).toBe(0);
    expect(gitRun(repo, ['push', '-q', 'origin', ':feature']).code).toBe(0);
  });
});

describe('findings init and doctor', () => {
  it('init writes hooks, attributes and layout, exits 0 without husky, and changes nothing the second time', async () => {
    const repo = makeRepo({ '.gitattributes': '*.png binary\n' });
    const first = await spawnFindings(['init'], { cwd: repo.root });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('npm i -D husky');
    for (const h of ['pre-commit', 'pre-merge-commit', 'pre-push'])
      expect(repo.read(`.husky/${h}`)).toBe(readFileSync(path.join(PACKAGE_ROOT, 'templates', `husky-${h}`), 'utf8'));
    expect(repo.read('.gitattributes')).toBe(
      '*.png binary\n.agents/** text eol=lf\n.agents/findings/registry.jsonl ' +
        'merge=union\n.agents/reviews/*.jsonl merge=union\n.agents/reviews/*.md merge=union\n',
    );
    for (const d of ['findings', 'constraints', 'reviews', 'tasks']) expect(repo.exists(`.agents/${d}/.gitkeep`)).toBe(true);
    // a lock left by a killed writer is ignored by git, so `git add -A` cannot commit it
    repo.write('.agents/findings/registry.lock', '{}');
    expect(repo.git('check-ignore', '.agents/findings/registry.lock').trim()).toBe('.agents/findings/registry.lock');
    const second = await spawnFindings(['init'], { cwd: repo.root });
    expect(second.code).toBe(0);
    expect(second.stdout.split('\n').filter((l) => /^(created|updated) /.test(l))).toEqual([]);
    expect(readFileSync(path.join(repo.root, '.gitattributes'), 'utf8').match(/eol=lf/g)).toHaveLength(1);
  });

  it('doctor: missing hooks, a healthy husky set-up, a non-executable hook, a linked worktree, a stale index', async () => {
    const plain = makeRepo();
    const missing = await runFindings(['doctor'], { cwd: plain.root });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('doctor/hook-missing');

    const repo = await hookedRepo();
    expect(repo.git('config', 'core.hooksPath').trim()).toBe('.husky/_');
    const healthy = await runFindings(['doctor'], { cwd: repo.root });
    expect(healthy.stdout + healthy.stderr).toContain('look right');
    expect(healthy.code).toBe(0);

    chmodSync(path.join(repo.root, '.husky/_/pre-commit'), 0o644);
    const noexec = await runFindings(['doctor'], { cwd: repo.root });
    expect(noexec.code).toBe(1);
    expect(noexec.stdout).toContain('doctor/hook-not-executable');
    chmodSync(path.join(repo.root, '.husky/_/pre-commit'), 0o755);

    const wt = path.join(tempDir('findings-wt-'), 'wt');
    repo.git('worktree', 'add', '-q', wt);
    const linked = await runFindings(['doctor'], { cwd: wt });
    expect(linked.code).toBe(1);
    expect(linked.stdout).toContain('doctor/hooks-path');
    expect(linked.stdout).toContain('linked worktree');

    repo.write('.agents/findings/registry.jsonl', fixture('registry-valid.jsonl'));
    repo.write('.agents/constraints/index.json', indexJson(constraint('orphan')));
    const stale = await runFindings(['doctor'], { cwd: repo.root });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('doctor/drift');
  });

  it('pre-commit refuses a stale compiled output and prints the fix command', async () => {
    const repo = await hookedRepo();
    repo.write('.agents/findings/registry.jsonl', fixture('registry-valid.jsonl'));
    stageIndex(repo, constraint('orphan'));
    repo.git('add', '.agents');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('compiler/drift');
    expect(r.stdout).toContain('npx findings-compile && git add .agents');
    // Following the advice makes the commit go through.
    const compiled = await spawnFindings([], { cwd: repo.root, bin: path.join(PACKAGE_ROOT, 'bin/findings-compile.js'), env: hookEnv() });
    expect(compiled.code).toBe(0);
    repo.git('add', '.agents');
    expect(commit(repo, []).code).toBe(0);
  });
});
