/** An active constraint never stops blocking silently (docs/compiler.md, "An active constraint stays until it is retired"). */
import { describe, expect, it } from 'vitest';
import { activate, compileJson, finding, INDEX, withFixtures } from '../helpers/active-finding.js';
import { makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';
import { commit, hookedRepo } from '../hooks/setup.js';

/** A repository with finding f-m compiled and its constraint activated. */
async function activeRepo(repo: TestRepo = makeRepo({})): Promise<TestRepo> {
  repo.write('.agents/findings/f-m.md', finding('f-m'));
  withFixtures(repo, 'f-m');
  expect((await compileJson(repo)).code).toBe(0);
  activate(repo);
  expect((await compileJson(repo)).code).toBe(0);
  return repo;
}

describe('an active constraint that no longer qualifies', () => {
  it('a broken pattern: compile fails (exit 1) and keeps the active entry and its measurement byte for byte', async () => {
    const repo = await activeRepo();
    const before = repo.read(INDEX);
    expect(before).toContain('"status": "active"');
    repo.write('.agents/findings/f-m.md', finding('f-m', 'eval\\\\(('));
    const r = await compileJson(repo);
    expect(r.code).toBe(1);
    const kept = r.diagnostics.find((d) => d.ruleId === 'compiler/active-unqualified');
    expect(kept).toMatchObject({ severity: 'error', file: '.agents/findings/f-m.md' });
    expect(kept!.message).toContain('findings constraint retire f-m');
    expect(repo.read(INDEX)).toBe(before);
  });

  it('a broken fixture: compile --check reports it and exits 1; the entry stays', async () => {
    const repo = await activeRepo();
    const before = repo.read(INDEX);
    repo.write('.agents/constraints/fixtures/f-m/bad.txt', 'nothing bad here\n');
    const check = await compileJson(repo, '--check');
    expect(check.code).toBe(1);
    expect(check.diagnostics.map((d) => d.ruleId)).toContain('compiler/active-unqualified');
    expect((await compileJson(repo)).code).toBe(1);
    expect(repo.read(INDEX)).toBe(before);
  });

  it('retiring it on purpose ends it: compile then succeeds and the entry is retired', async () => {
    const repo = await activeRepo();
    repo.write('.agents/findings/f-m.md', finding('f-m', 'eval\\\\(('));
    expect((await compileJson(repo)).code).toBe(1);
    const retire = await runFindings(['constraint', 'retire', 'f-m', '--root', repo.root], { cwd: repo.root });
    expect(retire.code).toBe(0);
    const r = await compileJson(repo);
    expect(r.diagnostics.map((d) => d.ruleId)).not.toContain('compiler/active-unqualified');
    expect(r.code).toBe(0);
    expect(repo.read(INDEX)).toContain('"status": "retired"');
  });

  it('pre-commit: the drift check reports it, and the gate keeps enforcing the last qualified detector', async () => {
    const repo = await activeRepo(await hookedRepo());
    repo.git('add', '-A');
    repo.git('commit', '-q', '--no-verify', '-m', 'active constraint');
    // The pattern breaks: compiling cannot drop the entry, and the commit of the broken finding is refused.
    repo.write('.agents/findings/f-m.md', finding('f-m', 'eval\\\\(('));
    expect((await compileJson(repo)).code).toBe(1);
    repo.git('add', '-A');
    const broken = commit(repo, []);
    expect(broken.code).not.toBe(0);
    expect(broken.stdout).toContain('compiler/active-unqualified');
    // Committed anyway (visible bypass): the old detector still blocks the next violation.
    repo.git('commit', '-q', '--no-verify', '-m', 'broken finding');
    repo.write('app.js', 'eval(input);\n');
    repo.git('add', 'app.js');
    const violation = commit(repo, []);
    expect(violation.code).not.toBe(0);
    expect(violation.stdout).toContain('constraint/f-m');
  });
});
