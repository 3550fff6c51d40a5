/**
 * A change cannot weaken its own judgment (docs/hooks.md): judged by the stricter of the
 * constraint index before it and after it, through real `git commit` and `git push` runs.
 */
import { describe, expect, it } from 'vitest';
import { activate, compileJson, finding, INDEX, withFixtures } from '../helpers/active-finding.js';
import { runFindings, tempDir, type TestRepo } from '../helpers/repo.js';
import { commit, constraint, gitRun, hookedRepo, stageIndex } from './setup.js';

const BAD = 'export const y = eval("1");\n';
const LAND_RULE = 'can land only in a commit that does not need it';

async function withActiveIndex(): Promise<TestRepo> {
  const repo = await hookedRepo();
  stageIndex(repo, constraint('active'));
  repo.git('commit', '-q', '--no-verify', '-m', 'index');
  return repo;
}

function stageViolation(repo: TestRepo): void {
  repo.write('app.js', BAD);
  repo.git('add', 'app.js');
}

describe('demotion in the same commit', () => {
  it('index.json edited by hand from active/block to shadow/warn, with a violation: blocked, and the diagnostic says why', async () => {
    const repo = await withActiveIndex();
    stageIndex(repo, constraint('active', { status: 'shadow' }));
    stageViolation(repo);
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('constraint/active');
    expect(r.stdout).toContain(LAND_RULE);
  });

  it('the demotion alone lands; the next violation then only warns', async () => {
    const repo = await withActiveIndex();
    stageIndex(repo, constraint('active', { status: 'shadow' }));
    expect(commit(repo, []).code).toBe(0);
    stageViolation(repo);
    const r = commit(repo, []);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('warning');
  });

  it('retiring (or removing the entry, or deleting index.json) together with a violation: blocked', async () => {
    for (const weaken of [
      (repo: TestRepo) => stageIndex(repo, constraint('active', { status: 'retired' })),
      (repo: TestRepo) => stageIndex(repo),
      (repo: TestRepo) => repo.git('rm', '-q', INDEX),
    ]) {
      const repo = await withActiveIndex();
      weaken(repo);
      stageViolation(repo);
      const r = commit(repo, []);
      expect(r.code).not.toBe(0);
      expect(r.stdout).toContain(LAND_RULE);
    }
  });

  it("an active finding's pattern changed and recompiled, with a violation of the old pattern: blocked", async () => {
    const repo = await hookedRepo();
    repo.write('.agents/findings/f-m.md', finding('f-m'));
    withFixtures(repo, 'f-m');
    expect((await compileJson(repo)).code).toBe(0);
    activate(repo);
    repo.git('add', '-A');
    repo.git('commit', '-q', '--no-verify', '-m', 'active constraint');
    // New pattern `exec\(` (fixtures follow), recompiled: the entry is a fresh shadow of the new detector.
    repo.write('.agents/findings/f-m.md', finding('f-m', 'exec\\\\('));
    repo.write('.agents/constraints/fixtures/f-m/bad.txt', 'exec(1)\n');
    expect((await compileJson(repo)).code).toBe(0);
    expect(repo.read(INDEX)).toContain('"status": "shadow"');
    repo.write('app.js', BAD);
    repo.git('add', '-A');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('constraint/f-m');
    expect(r.stdout).toContain(LAND_RULE);
    // validate and compile --check see nothing wrong with the change itself: the gate is what blocks.
    const staged = await runFindings(['check', '--staged', '--root', repo.root], { cwd: repo.root });
    expect(staged.code).toBe(1);
  });

  it('a demotion staged but left out of `git commit <path>` does not soften what that commit is judged by (GIT_INDEX_FILE)', async () => {
    const repo = await withActiveIndex();
    repo.write('app.js', 'export const y = 1;\n');
    repo.git('add', 'app.js');
    expect(commit(repo, []).code).toBe(0);
    stageIndex(repo, constraint('active', { status: 'shadow' })); // in .git/index, not in this commit
    repo.write('app.js', BAD);
    const r = commit(repo, ['app.js']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('active constraint: this blocks');
    expect(r.stdout).not.toContain(LAND_RULE); // judged by HEAD's index as it is, not as a demotion
  });

  it('check --staged and check --from-ref/--to-ref judge by the stricter index too', async () => {
    const repo = await withActiveIndex();
    const base = repo.git('rev-parse', 'HEAD').trim();
    stageIndex(repo, constraint('active', { status: 'shadow' }));
    stageViolation(repo);
    const staged = await runFindings(['check', '--staged', '--root', repo.root], { cwd: repo.root });
    expect(staged.code).toBe(1);
    expect(staged.stdout + staged.stderr).toContain(LAND_RULE);
    repo.git('commit', '-q', '--no-verify', '-m', 'demote + violation');
    const range = await runFindings(['check', '--from-ref', base, '--to-ref', 'HEAD', '--root', repo.root], { cwd: repo.root });
    expect(range.code).toBe(1);
    expect(range.stdout + range.stderr).toContain('constraint/active');
  });

  it('pre-push: a pushed range that demotes and violates is refused', async () => {
    const remote = tempDir('findings-remote-');
    const repo = await withActiveIndex();
    gitRun(repo, ['init', '-q', '--bare', remote]);
    repo.git('remote', 'add', 'origin', remote);
    expect(gitRun(repo, ['push', '-q', '--no-verify', 'origin', 'main']).code).toBe(0);
    stageIndex(repo, constraint('active', { status: 'shadow' }));
    stageViolation(repo);
    repo.git('commit', '-q', '--no-verify', '-m', 'demote + violation');
    const r = gitRun(repo, ['push', '-q', 'origin', 'main']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('constraint/active');
  });
});

describe('fail closed on duplicate JSON keys', () => {
  it('an index whose second "constraints" key empties the first: the commit is blocked, validate and check fail', async () => {
    const repo = await hookedRepo();
    const active = JSON.stringify(constraint('active'));
    repo.write(INDEX, `{"version": 1, "constraints": [${active}], "constraints": []}\n`);
    stageViolation(repo);
    repo.git('add', INDEX);
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toMatch(/duplicate key "constraints"/);
    const validate = await runFindings(['validate', '--root', repo.root], { cwd: repo.root });
    expect(validate.code).not.toBe(0);
    repo.git('commit', '-q', '--no-verify', '-m', 'dup');
    const check = await runFindings(['check', '--all', '--root', repo.root], { cwd: repo.root });
    expect(check.code).not.toBe(0);
    expect(check.stdout + check.stderr).toMatch(/duplicate key/);
  });

  it('an entry whose status and enforcement_mode disagree blocks', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, { ...constraint('odd', { status: 'shadow' }), enforcement_mode: 'block' });
    repo.git('commit', '-q', '--no-verify', '-m', 'index');
    stageViolation(repo);
    expect(commit(repo, []).code).not.toBe(0);
  });
});
