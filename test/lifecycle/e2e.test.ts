/**
 * The whole loop in one real repository (docs/lifecycle.md): review findings → candidate →
 * registry → compiled shadow constraint → measured over a generated 500-commit history →
 * labelled → activation refused below 95% and accepted at 95% → blocks a commit → retired.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOk, makeMechanical as makeMechanicalWith } from '../helpers/findings.js';
import { FIXTURES, makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';
import { generateHistory, grepCounts, grepDistinct } from './history.js';

const ENV = { FINDINGS_NOW: '2026-03-01T10:00:00Z' };
const E2E = path.join(FIXTURES, 'lifecycle/e2e');

interface Hit {
  id: string;
  path: string;
}

const ok = (repo: TestRepo, args: string[]): Promise<string> => expectOk(repo, args, ENV);
const makeMechanical = (repo: TestRepo, id: string): void => makeMechanicalWith(repo, id, E2E);

describe('recurrence to an active constraint and back', () => {
  it('runs the whole lifecycle', async () => {
    const repo = makeRepo();
    const history = generateHistory(repo, { commits: 500 });
    const shaByMark = new Map(
      repo
        .git('rev-list', '--reverse', 'HEAD')
        .trim()
        .split('\n')
        .map((s, i) => [i + 1, s] as [number, string]),
    );

    // 1. the same defect on two tasks of different objectives → one candidate; promote; compile
    await ok(repo, ['review', 'task', 'T-1', '--criterion', 'works', '--objective', 'login']);
    await ok(repo, ['review', 'task', 'T-2', '--criterion', 'works', '--objective', 'billing']);
    const findings = path.join(FIXTURES, 'lifecycle/recur/debug-log.json');
    await ok(repo, ['review', 'fail', 'T-1', '--findings', findings]);
    await ok(repo, ['review', 'fail', 'T-2', '--findings', findings]);
    expect(await ok(repo, ['recur'])).toContain('1 advisory candidate(s)');
    await ok(repo, ['recur', '--promote', 'debug-console-log']);
    const entry = JSON.parse(repo.read('.agents/findings/registry.jsonl')) as { id: string };
    await ok(repo, ['compile']);
    makeMechanical(repo, entry.id);
    await ok(repo, ['compile']);
    const cid = entry.id;
    const index = (): { status: string; enforcement_mode: string; evidence: Record<string, unknown> } =>
      (JSON.parse(repo.read('.agents/constraints/index.json')) as { constraints: { id: string }[] }).constraints.find(
        (c) => c.id === cid,
      ) as never;
    expect(index()).toMatchObject({ status: 'shadow', enforcement_mode: 'warn' });
    repo.commitAll('findings');

    // 2. measure over the history: the samples git grep counts, each violation once (distinct hits)
    await ok(repo, ['constraint', 'measure']);
    const mfile = `.agents/constraints/measurements/${cid}.json`;
    const m = JSON.parse(repo.read(mfile)) as { samples: number; hits: Hit[] };
    shaByMark.set(501, repo.git('rev-parse', 'HEAD').trim());
    const full = [...history, { mark: 501, changed: [] }];
    const expected = grepCounts(repo, shaByMark, full, 'console\\.log\\(');
    expect({ samples: m.samples, hits: m.hits.length }).toEqual({
      samples: expected.samples,
      hits: grepDistinct(repo, shaByMark, full, 'console\\.log\\('),
    });

    // 3. 18 of 20 true: refused, naming each failed condition and by how much
    const ids = m.hits.map((h) => h.id);
    await ok(repo, ['constraint', 'label', cid, ...ids.slice(0, 18), '--true-positive']);
    await ok(repo, ['constraint', 'label', cid, ...ids.slice(18, 20), '--false-positive']);
    let r = await runFindings(['constraint', 'activate', cid], { cwd: repo.root, env: ENV });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('precision 0.90 (95% CI 0.70–0.97) < 0.95 (18 of 20 labelled hits true)');
    expect(r.stdout).toMatch(/\d+ violation\(s\) in \d+ file\(s\) of the current tree \(HEAD [0-9a-f]{8}\) > 0 allowed/);
    expect(r.stdout).not.toContain('labelled hit(s) <');

    // 4. 19 of 20 (0.95) but the current tree still violates: refused for that alone
    await ok(repo, ['constraint', 'label', cid, ids[18]!, '--true-positive']);
    r = await runFindings(['constraint', 'activate', cid], { cwd: repo.root, env: ENV });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('precision');
    expect(r.stdout).toContain('lifecycle/current-violations');

    // 5. clean the tree: accepted at 95%
    for (const p of repo.git('ls-files', 'src').trim().split('\n')) {
      if (p.endsWith('.bin')) continue;
      repo.write(p, repo.read(p).replaceAll('console.log(', 'logger.info('));
    }
    repo.commitAll('use the logger');
    r = await runFindings(['constraint', 'activate', cid], { cwd: repo.root, env: ENV });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(`${cid}: active + block (precision 0.95 (95% CI 0.76–0.99), 19 of 20 labelled hits true`);
    expect(index()).toMatchObject({
      status: 'active',
      enforcement_mode: 'block',
      evidence: { precision_evidence_ref: mfile, shadow_samples: 20, true_positives: 19, false_positives: 1 },
    });
    // a recompile keeps it active; activating again is refused
    await ok(repo, ['compile']);
    expect(index().status).toBe('active');
    r = await runFindings(['constraint', 'activate', cid], { cwd: repo.root, env: ENV });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('its status is "active"; only shadow constraints can be activated');
    repo.commitAll('activate');

    // 6. the active constraint blocks a commit
    repo.write('src/new.ts', 'export const x = 1;\nconsole.log(x);\n');
    repo.git('add', 'src/new.ts');
    r = await runFindings(['check', '--staged'], { cwd: repo.root, env: ENV });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('src/new.ts:2');
    expect(r.stdout).toContain(`constraint/${cid}`);
    r = await runFindings(['hook', 'pre-commit'], { cwd: repo.root, env: ENV });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(cid);

    // 7. retiring it lets the next commit through; it stays in the index for history. The
    //    retirement lands on its own: it cannot carry the violation it retires (docs/hooks.md).
    await ok(repo, ['constraint', 'retire', cid]);
    expect(index()).toMatchObject({ status: 'retired', enforcement_mode: 'off' });
    repo.git('add', '.agents/constraints/index.json');
    r = await runFindings(['check', '--staged'], { cwd: repo.root, env: ENV });
    expect(r.code, r.stdout).toBe(1);
    repo.git('reset', '-q', 'src/new.ts');
    repo.git('commit', '-q', '--no-verify', '-m', 'retire');
    repo.git('add', 'src/new.ts');
    r = await runFindings(['check', '--staged'], { cwd: repo.root, env: ENV });
    expect(r.code, r.stdout).toBe(0);
    r = await runFindings(['constraint', 'retire', cid], { cwd: repo.root, env: ENV });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('only active constraints can be retired');
  });
});
