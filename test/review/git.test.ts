import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewPushGate, taskFromBranch } from '../../src/review/gate.js';
import { readLedger } from '../../src/review/ledger.js';
import { commitFiles } from '../../src/repo-files.js';
import { validateRepository } from '../../src/validate/index.js';
import { worktreeFiles } from '../../src/repo-files.js';
import { FIXTURES, makeRepo, PACKAGE_ROOT, runFindings, spawnFindings, withPrePushRemote, type TestRepo } from '../helpers/repo.js';

const LEDGER = '.agents/reviews/T-1.jsonl';
const NOW = '2026-03-04T05:06:07Z';

function repo(): TestRepo {
  const r = makeRepo({ 'app.py': 'print(1)\n' });
  r.copy('review/repo');
  r.commitAll('init');
  return r;
}
const run = (r: TestRepo, args: string[], env: NodeJS.ProcessEnv = {}) =>
  runFindings(['review', ...args], { cwd: r.root, env: { FINDINGS_NOW: NOW, ...env } });
const idsOf = (stdout: string): string[] => [...stdout.matchAll(/\[F-([0-9a-f]{8})\]/g)].map((m) => m[1]!);
const gate = (r: TestRepo, localRef = 'refs/heads/feature/T-1') =>
  reviewPushGate({ root: r.root, commit: r.git('rev-parse', 'HEAD').trim(), localRef });

describe('taskFromBranch', () => {
  const def = '^(?:.*/)?([A-Za-z0-9][A-Za-z0-9._-]{0,127})$';
  it.each([
    ['refs/heads/T-1', 'T-1'],
    ['refs/heads/feature/T-1', 'T-1'],
    ['refs/heads/alice/fix/T-1.2', 'T-1.2'],
    ['refs/tags/T-1', null],
  ])('%s → %s', (ref, task) => expect(taskFromBranch(ref, def)).toBe(task));
  it('honours a configured pattern', () => {
    expect(taskFromBranch('refs/heads/task-42-rate-limit', '^task-(\\d+)-')).toBe('42');
    expect(taskFromBranch('refs/heads/main', '^task-(\\d+)-')).toBeNull();
  });
});

describe('the push gate (reviewPushGate) on real commits', () => {
  it('fail → refused → resolve → accepted → pass verifies; reads the pushed commit, not the working tree', async () => {
    const r = repo();
    const [a, b] = idsOf((await run(r, ['fail', 'T-1', '--issue', 'no retry', '--issue', 'no log'])).stdout);
    r.commitAll('qa fails T-1');
    const refused = await gate(r);
    expect(refused.map((d) => [d.file, d.line, d.severity, d.ruleId])).toEqual([
      [LEDGER, 1, 'error', 'review/open-finding'],
      [LEDGER, 2, 'error', 'review/open-finding'],
    ]);
    expect(refused[0]!.message).toContain(`[F-${a}] — (major) — issue resolved → no retry`);
    expect(refused[0]!.notes).toEqual([`resolve it: findings review resolve T-1 --finding ${a} --note "<what changed>"`]);
    expect(await gate(r, 'refs/heads/other/T-2')).toEqual([]); // another task: no ledger, nothing to say

    r.write('app.py', 'print(2)\n');
    const fix = r.commitAll('fix');
    await run(r, ['resolve', 'T-1', '--finding', `${a}:${fix}`, '--finding', b!]);
    expect((await gate(r)).length).toBe(2); // resolved in the working tree only: the pushed commit still has them open
    r.commitAll('resolve');
    expect(await gate(r)).toEqual([]);

    const pass = await run(r, ['pass', 'T-1', '--origin', 'qa']);
    expect(pass.stdout.match(/^verified/gm)).toHaveLength(2);
    const { findings } = await readLedger(worktreeFiles(r.root), 'T-1');
    expect(findings.map((f) => [f.shortId, f.status, f.resolution?.commit])).toEqual([
      [a, 'verified', fix],
      [b, 'verified', r.git('rev-parse', 'HEAD~1').trim()],
    ]);
  });

  it('finds the task from a Task: trailer and from a configured branch pattern', async () => {
    const r = repo();
    await run(r, ['fail', 'T-1', '--issue', 'retry is missing']);
    r.git('add', '-A');
    r.git('commit', '-q', '-m', 'work\n\nTask: T-1');
    expect(await gate(r, 'refs/heads/main')).toHaveLength(1);
    r.write('.agents/config.json', JSON.stringify({ task_branch_pattern: '^work-on-(.+)$' }));
    r.commitAll('config');
    expect(await gate(r, 'refs/heads/work-on-T-1')).toHaveLength(1);
    expect(await gate(r, 'refs/heads/feature/T-1')).toHaveLength(0);
  });

  it('a real git push through the pre-push hook is refused, then accepted', async () => {
    const r = repo();
    const remote = withPrePushRemote(r);
    r.git('checkout', '-q', '-b', 'feature/T-1');
    const [a] = idsOf((await run(r, ['fail', 'T-1', '--issue', 'no retry'])).stdout);
    r.commitAll('qa fails T-1');
    const refused = r.tryGit(['push', 'origin', 'feature/T-1']);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain(`[F-${a}]`);
    await run(r, ['resolve', 'T-1', '--finding', a!]);
    r.commitAll('resolve');
    const accepted = r.tryGit(['push', 'origin', 'feature/T-1']);
    expect(accepted.stdout + accepted.stderr).not.toContain('review/open-finding');
    expect(accepted.code).toBe(0);
    expect(r.git('ls-remote', remote, 'refs/heads/feature/T-1')).toContain(r.git('rev-parse', 'HEAD').trim());
  });
});

describe('pre-push validates the pushed review files', () => {
  it('refuses a push that carries a waiver forged by someone who is not an auditor', async () => {
    const r = repo();
    withPrePushRemote(r);
    await run(r, ['fail', 'T-1', '--findings', path.join(FIXTURES, 'review/findings/valid.json')]);
    r.commitAll('qa');
    // `main` names no task, so the open-findings gate has nothing to say: only validation can refuse.
    expect(r.tryGit(['push', 'origin', 'main']).code).toBe(0);
    const findingId = (JSON.parse(r.read(LEDGER).split('\n')[1]!) as { finding_id: string }).finding_id;
    const forged = JSON.stringify({
      event_id: 'e'.repeat(32),
      type: 'waived',
      task: 'T-1',
      finding_id: findingId,
      note: 'fine',
      actor: 'auditor@example.com',
      at: NOW,
    });
    r.write(LEDGER, `${r.read(LEDGER)}${forged}\n`);
    r.commitAll('sneak a waiver in');
    const refused = r.tryGit(['push', 'origin', 'main']);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('review/role-not-held');
  });
});

describe('pre-push keeps ledgers append-only', () => {
  it('refuses a push that removes ledger lines, and names the lines', async () => {
    const r = repo();
    withPrePushRemote(r);
    await run(r, ['fail', 'T-1', '--issue', 'no retry']);
    r.commitAll('qa');
    expect(r.tryGit(['push', 'origin', 'main']).code).toBe(0);
    // Emptying the ledger would fold to "no open findings" and open the push gate.
    r.write(LEDGER, '');
    r.commitAll('forget the review');
    const refused = r.tryGit(['push', 'origin', 'main']);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/review\/ledger-rewritten/);
    expect(refused.stdout + refused.stderr).toContain('lines 1');
  });
});

describe('merging two branches', () => {
  it('union-merges appended findings without conflict and folds to the right state', async () => {
    const r = repo();
    // The attributes `findings init` writes (templates/gitattributes), not a hand-made copy.
    r.write('.gitattributes', readFileSync(path.join(PACKAGE_ROOT, 'templates', 'gitattributes'), 'utf8'));
    const [base] = idsOf((await run(r, ['fail', 'T-1', '--issue', 'base issue'])).stdout);
    r.commitAll('round 1');
    r.git('checkout', '-q', '-b', 'left');
    await run(r, ['resolve', 'T-1', '--finding', base!]);
    const [left] = idsOf((await run(r, ['pr-fail', 'T-1', '--issue', 'left issue'], { FINDINGS_NOW: '2026-03-05T00:00:00Z' })).stdout);
    r.commitAll('left');
    r.git('checkout', '-q', 'main');
    const [right] = idsOf(
      (await run(r, ['request-changes', 'T-1', '--issue', 'right issue'], { FINDINGS_NOW: '2026-03-06T00:00:00Z' })).stdout,
    );
    r.commitAll('right');
    const merge = r.tryGit(['merge', '-q', '--no-edit', 'left']);
    expect(merge.code).toBe(0);
    const { findings, diagnostics } = await readLedger(commitFiles(r.root, r.git('rev-parse', 'HEAD').trim()), 'T-1');
    expect(diagnostics).toEqual([]);
    expect(findings.map((f) => [f.shortId, f.origin, f.round, f.status])).toEqual([
      [base, 'qa', 1, 'addressed'],
      ...[
        [left, 'pr_gate', 2, 'open'],
        [right, 'pm', 2, 'open'],
      ].sort((x, y) => (x[0]! < y[0]! ? -1 : 1)),
    ]);
    // the next round continues after the highest round of either branch
    const next = await run(r, ['fail', 'T-1', '--issue', 'after merge']);
    expect(next.stderr).toContain('(round 3)');
    await run(r, ['note', 'T-1']);
    expect(r.read('.agents/reviews/T-1.md')).toContain('4 findings: 3 open, 1 addressed');
  });
});

describe('findings validate on ledgers', () => {
  const validate = async (r: TestRepo, commit: string | null = null) =>
    validateRepository({ root: r.root, files: commit ? commitFiles(r.root, commit) : worktreeFiles(r.root), commit });

  it('reports schema problems and illegal transitions at their lines', async () => {
    const r = repo();
    r.copy(path.join(FIXTURES, 'review/ledgers/illegal.jsonl'), LEDGER);
    r.git('config', 'user.email', 'auditor@example.com');
    const got = (await validate(r)).filter((d) => d.file === LEDGER).map((d) => [d.line, d.ruleId]);
    expect(got).toEqual(
      expect.arrayContaining([
        [3, 'review/illegal-transition'], // verified, never addressed
        [4, 'review/unknown-finding'],
        [5, 'review/task-mismatch'],
        [6, 'review/schema'], // severity critical
        [7, 'review/invalid-json'],
        [9, 'review/duplicate-event-id'],
        [10, 'review/illegal-transition'], // waives a blocker
      ]),
    );
    expect(got.filter(([, rule]) => rule === 'review/role-not-held')).toEqual([]); // the prospective author is the auditor
  });

  it('checks that each waiver was committed by an auditor listed at that commit', async () => {
    const r = repo();
    const [, minor] = idsOf((await run(r, ['fail', 'T-1', '--findings', path.join(FIXTURES, 'review/findings/valid.json')])).stdout);
    r.commitAll('qa');
    // a developer forges a waiver line by hand, as if the auditor had written it
    const forged = JSON.stringify({
      event_id: 'f'.repeat(32),
      type: 'waived',
      task: 'T-1',
      finding_id: (JSON.parse(r.read(LEDGER).split('\n')[1]!) as { finding_id: string }).finding_id,
      note: 'fine',
      actor: 'auditor@example.com',
      at: NOW,
    });
    r.write(LEDGER, `${r.read(LEDGER)}${forged}\n`);
    const uncommitted = (await validate(r)).filter((d) => d.ruleId === 'review/role-not-held');
    expect(uncommitted).toEqual([
      expect.objectContaining({ line: 3, message: expect.stringContaining('would be authored by author@example.com') }),
    ]);
    const sha = r.commitAll('sneak a waiver in');
    const atCommit = (await validate(r, sha)).filter((d) => d.ruleId === 'review/role-not-held');
    expect(atCommit).toEqual([
      expect.objectContaining({
        file: LEDGER,
        line: 3,
        severity: 'error',
        message: expect.stringContaining(`added by author@example.com in commit ${sha.slice(0, 12)}`),
      }),
    ]);

    // the real auditor waives on a clean branch: accepted, and stays valid after the auditor leaves roles.json
    const r2 = repo();
    const [, m2] = idsOf((await run(r2, ['fail', 'T-1', '--findings', path.join(FIXTURES, 'review/findings/valid.json')])).stdout);
    r2.commitAll('qa');
    r2.git('config', 'user.email', 'auditor@example.com');
    expect((await run(r2, ['waive', 'T-1', m2!, '--note', 'log format changes in T-7'])).code).toBe(0);
    r2.git('add', '-A');
    r2.git('-c', 'user.email=auditor@example.com', 'commit', '-q', '-m', 'waive', '--author', 'Aud <auditor@example.com>');
    r2.write('.agents/roles.json', JSON.stringify({ auditor: [], ceo: [] }));
    const later = r2.commitAll('auditor leaves');
    expect((await validate(r2, later)).filter((d) => d.severity === 'error')).toEqual([]);
    void minor;
  });

  it('checks task and roles files', async () => {
    const r = repo();
    r.write(
      '.agents/tasks/T-2.json',
      JSON.stringify({
        id: 'T-3',
        criteria: [
          { id: 'AC1', text: 'x' },
          { id: 'AC1', text: 'y' },
        ],
      }),
    );
    r.write('.agents/tasks/bad name.json', JSON.stringify({ id: 'bad name', criteria: [] }));
    r.write('.agents/roles.json', JSON.stringify({ auditor: 'me@example.com' }));
    const got = (await validate(r)).map((d) => [d.file, d.ruleId]);
    expect(got).toEqual(
      expect.arrayContaining([
        ['.agents/tasks/T-2.json', 'review/task-id'],
        ['.agents/tasks/T-2.json', 'review/task-duplicate-criterion'],
        ['.agents/tasks/bad name.json', 'review/task-id'],
        ['.agents/roles.json', 'review/roles-schema'],
      ]),
    );
  });
});

describe('concurrency', () => {
  it('two processes appending to one ledger at once lose nothing', async () => {
    const r = repo();
    const calls = Array.from({ length: 4 }, (_, i) =>
      spawnFindings(['review', 'fail', 'T-1', '--issue', `from ${i}`, '--issue', `also ${i}`], { cwd: r.root }),
    );
    const results = await Promise.all(calls);
    expect(results.map((x) => x.code)).toEqual([0, 0, 0, 0]);
    const { findings, diagnostics } = await readLedger(worktreeFiles(r.root), 'T-1');
    expect(diagnostics).toEqual([]);
    expect(findings).toHaveLength(8);
    expect([...new Set(findings.map((f) => f.round))].sort()).toEqual([1, 2, 3, 4]);
  });
});
