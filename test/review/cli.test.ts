import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';

const NOW = '2026-03-04T05:06:07Z';
const LEDGER = '.agents/reviews/T-1.jsonl';
const NOTE = '.agents/reviews/T-1.md';
const fx = (name: string): string => path.join(FIXTURES, 'review/findings', name);

function repo(): TestRepo {
  const r = makeRepo();
  r.copy('review/repo');
  r.commitAll('init');
  return r;
}
const run = (r: TestRepo, args: string[], env: NodeJS.ProcessEnv = {}, stdin?: string) =>
  runFindings(['review', ...args], { cwd: r.root, env: { FINDINGS_NOW: NOW, ...env }, ...(stdin === undefined ? {} : { stdin }) });
const ids = (stdout: string): string[] => [...stdout.matchAll(/\[F-([0-9a-f]{8})\]/g)].map((m) => m[1]!);
const lines = (r: TestRepo): unknown[] =>
  r
    .read(LEDGER)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);

describe('findings review: producers', () => {
  it('files a round, prints each rendering and writes the ledger and the note', async () => {
    const r = repo();
    const res = await run(r, ['fail', 'T-1', '--findings', fx('valid.json'), '--issue', 'docs are missing']);
    expect(res.code).toBe(0);
    const out = res.stdout.trim().split('\n');
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(
      new RegExp(
        String.raw`^\[F-[0-9a-f]{8}\] api/rate_limit\.py:88 \(blocker\) — 429 on the 101st request → ` +
          'the 100th request also 429s → use > not >= on the window limit$',
      ),
    );
    expect(out[1]).toMatch(/^\[F-[0-9a-f]{8}\] api\/log\.py \(minor\) — client id in the log line → only the ip is logged$/);
    expect(out[2]).toMatch(/^\[F-[0-9a-f]{8}\] — \(major\) — issue resolved → docs are missing$/);
    expect(lines(r)).toEqual([
      expect.objectContaining({
        type: 'filed',
        origin: 'qa',
        round: 1,
        index: 0,
        actor: 'author@example.com',
        at: NOW,
        finding: expect.objectContaining({ criterion: 'AC1', file: 'api/rate_limit.py' }),
      }),
      expect.objectContaining({ index: 1, finding: expect.objectContaining({ criterion: 'AC2' }) }),
      expect.objectContaining({ index: 2, finding: expect.objectContaining({ severity: 'major', file: null }) }),
    ]);
    const note = r.read(NOTE);
    for (const l of out) expect(note).toContain(l);
    expect((await run(r, ['note', 'T-1'])).stdout).toBe('T-1: note unchanged\n');
  });

  it('numbers rounds per task across origins', async () => {
    const r = repo();
    await run(r, ['fail', 'T-1', '--issue', 'one']);
    await run(r, ['pr-fail', 'T-1', '--issue', 'two']);
    await run(r, ['request-changes', 'T-1', '--issue', 'three']);
    expect(lines(r).map((l) => [(l as { origin: string }).origin, (l as { round: number }).round])).toEqual([
      ['qa', 1],
      ['pr_gate', 2],
      ['pm', 3],
    ]);
  });

  it('reads --findings - from standard input', async () => {
    const r = repo();
    const res = await run(
      r,
      ['request-changes', 'T-1', '--findings', '-'],
      {},
      JSON.stringify([{ severity: 'nit', expected: 'e', actual: 'got 200' }]),
    );
    expect(res.code).toBe(0);
    expect(ids(res.stdout)).toHaveLength(1);
  });

  it('refuses an invalid finding naming file, line, index and field; nothing is written', async () => {
    const r = repo();
    const res = await run(r, ['fail', 'T-1', '--findings', fx('invalid-line.json')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/invalid-line\.json:8 +error +findings\[1\]\.file: "a\/\.\.\/b\.py" contains a "\.\." segment/);
    expect(res.stderr).toMatch(/invalid-line\.json:8 +error +findings\[1\]\.line: must be an integer >= 1 \(got 0\)/);
    expect(r.exists(LEDGER)).toBe(false);
    expect(r.exists(NOTE)).toBe(false);
  });

  it('refuses an unknown criterion and lists the valid ids', async () => {
    const r = repo();
    const res = await run(r, ['fail', 'T-1', '--findings', fx('bad-criterion.json')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('"AC7" matches no criterion of task "T-1"; valid ids: AC1, AC2');
    expect(r.exists(LEDGER)).toBe(false);
  });

  it('count guard: 11 merged findings are refused, 6 warn', async () => {
    const r = repo();
    const many = (n: number): string[] => Array.from({ length: n }, (_, i) => ['--issue', `issue ${i}`]).flat();
    const refused = await run(r, ['fail', 'T-1', '--findings', fx('valid.json'), ...many(9)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('11 findings in one call (2 from --findings + 9 from --issue); at most 10');
    expect(r.exists(LEDGER)).toBe(false);
    const warned = await run(r, ['fail', 'T-1', '--findings', fx('valid.json'), ...many(4)]);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('warning');
    expect(ids(warned.stdout)).toHaveLength(6);
  });

  it('bad invocations exit 2', async () => {
    const r = repo();
    expect((await run(r, ['fail', 'T-1'])).code).toBe(2);
    expect((await run(r, ['fail', '../x', '--issue', 'a'])).code).toBe(2);
    expect((await run(r, ['fail', 'T-1', '--findings', 'missing.json'])).code).toBe(2);
    expect((await run(r, ['pass', 'T-1', '--origin', 'boss'])).code).toBe(2);
  });

  it('appends on a new line when the ledger lacks its final newline', async () => {
    const r = repo();
    await run(r, ['fail', 'T-1', '--issue', 'one']);
    r.write(LEDGER, r.read(LEDGER).trimEnd());
    await run(r, ['fail', 'T-1', '--issue', 'two']);
    expect(lines(r)).toHaveLength(2);
  });

  it('ceo-reject: CEOs only, placeholder reasons refused, one blocker finding', async () => {
    const r = repo();
    expect((await run(r, ['ceo-reject', 'T-1', '--reason', 'pricing is wrong'])).stderr).toContain('not listed under "ceo"');
    r.git('config', 'user.email', 'ceo@example.com');
    for (const reason of ['', '  ', 'wip', 'TBD', 'n/a', '-', '...', '?']) {
      const res = await run(r, ['ceo-reject', 'T-1', '--reason', reason]);
      expect(res.code, reason).toBe(1);
      expect(res.stderr).toContain('placeholder');
    }
    expect(r.exists(LEDGER)).toBe(false);
    const ok = await run(r, ['ceo-reject', 'T-1', '--reason', 'the pricing page still shows the old plan']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      /^\[F-[0-9a-f]{8}\] — \(blocker\) — CEO sign-off on this task → the pricing page still shows the old plan\n$/,
    );
    expect(lines(r)).toEqual([expect.objectContaining({ origin: 'ceo', actor: 'ceo@example.com' })]);
  });

  it('task creates and extends the criteria file', async () => {
    const r = makeRepo();
    expect((await run(r, ['task', 'T-9', '--criterion', 'first', '--criterion', 'second', '--objective', 'obj-1'])).stdout).toBe(
      'AC1  first\nAC2  second\n',
    );
    expect((await run(r, ['task', 'T-9', '--criterion', 'second', '--criterion', 'third'])).stdout).toContain('AC3  third');
    expect(JSON.parse(r.read('.agents/tasks/T-9.json'))).toEqual({
      id: 'T-9',
      owner: 'author@example.com',
      objective: 'obj-1',
      criteria: [
        { id: 'AC1', text: 'first' },
        { id: 'AC2', text: 'second' },
        { id: 'AC3', text: 'third' },
      ],
    });
  });
});

describe('findings review: resolve, submit, pass, waive, show', () => {
  async function filed(): Promise<{ r: TestRepo; ids: string[]; head: string }> {
    const r = repo();
    const res = await run(r, ['fail', 'T-1', '--findings', fx('valid.json'), '--issue', 'docs are missing']);
    return { r, ids: ids(res.stdout), head: r.git('rev-parse', 'HEAD').trim() };
  }

  it('resolve accepts the 8-char id, a longer prefix, the full id, any case, F- and [F-…]; reports the rest with exit 1', async () => {
    const {
      r,
      ids: [a, b, c],
      head,
    } = await filed();
    const full = (lines(r)[2] as { finding_id: string }).finding_id;
    expect(full.startsWith(c!)).toBe(true);
    const res = await run(r, [
      'resolve',
      'T-1',
      '--finding',
      `[F-${a!.toUpperCase()}]`,
      '--finding',
      `F-${full.slice(0, 12)}`,
      '--finding',
      'deadbeef',
      '--note',
      'fixed',
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('deadbeef: no finding with this id on task "T-1"');
    expect(res.stdout.match(/^addressed /gm)).toHaveLength(2);
    const again = await run(r, ['resolve', 'T-1', '--finding', a!, '--finding', `${b!}:${head}`]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${a}: F-${a} is not open (it is addressed)`);
    const events = lines(r).slice(3) as { finding_id: string; commit: string; note: string | null }[];
    expect(events.map((e) => [e.finding_id.slice(0, 8), e.commit, e.note])).toEqual([
      [a, head, 'fixed'],
      [c, head, 'fixed'],
      [b, head, null],
    ]);
  });

  it('resolve names the task an id of another task belongs to', async () => {
    const {
      r,
      ids: [a],
    } = await filed();
    await run(r, ['fail', 'T-2', '--issue', 'elsewhere']);
    const res = await run(r, ['resolve', 'T-2', '--finding', a!]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('belongs to task "T-1", not "T-2"');
  });

  it('submit refuses while anything is open, listing each open id with the resolve command', async () => {
    const {
      r,
      ids: [a, b, c],
      head,
    } = await filed();
    const refused = await run(r, ['submit', 'T-1', '--resolved', `${a}:${head}:off by one fixed`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`[F-${b}] api/log.py (minor)`);
    expect(refused.stderr).toContain(`findings review resolve T-1 --finding ${b}`);
    expect(refused.stderr).toContain(`findings review resolve T-1 --finding ${c}`);
    expect(refused.stderr).not.toContain(`--finding ${a}`);
    const ok = await run(r, ['submit', 'T-1', '--resolved', b!, '--resolved', `${c}::docs added`]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('no open findings');
  });

  it('pass verifies the addressed findings of its own origin only', async () => {
    const {
      r,
      ids: [a, b],
    } = await filed();
    const pm = ids((await run(r, ['request-changes', 'T-1', '--issue', 'pm issue'])).stdout);
    await run(r, ['resolve', 'T-1', '--finding', a!, '--finding', pm[0]!]);
    const res = await run(r, ['pass', 'T-1', '--origin', 'qa']);
    expect(res.stdout).toMatch(new RegExp(`^verified \\[F-${a}\\]`));
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    const shown = JSON.parse((await run(r, ['show', 'T-1', '--all', '--format', 'json'])).stdout) as {
      short_id: string;
      status: string;
      round: number;
    }[];
    expect(shown.map((f) => [f.short_id, f.round, f.status])).toEqual([
      [pm[0], 2, 'addressed'],
      [a, 1, 'verified'],
      [b, 1, 'open'],
      [expect.any(String), 1, 'open'],
    ]);
  });

  it('waive: auditor only, minor/nit only, open only, real note; records who and when', async () => {
    const {
      r,
      ids: [a, b],
    } = await filed();
    const denied = await run(r, ['waive', 'T-1', b!, '--note', 'cosmetic']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('author@example.com is not listed under "auditor"');
    r.git('config', 'user.email', 'auditor@example.com');
    const blocker = await run(r, ['waive', 'T-1', a!, '--note', 'we ship anyway']);
    expect(blocker.code).toBe(1);
    expect(blocker.stderr).toContain('must be fixed, never waived');
    expect((await run(r, ['waive', 'T-1', b!, '--note', 'TBD'])).code).toBe(1);
    const ok = await run(r, ['waive', 'T-1', b!, '--note', 'logging format changes in T-7']);
    expect(ok.code).toBe(0);
    expect(lines(r).at(-1)).toEqual(
      expect.objectContaining({ type: 'waived', actor: 'auditor@example.com', at: NOW, note: 'logging format changes in T-7' }),
    );
    expect((await run(r, ['waive', 'T-1', b!, '--note', 'again, really'])).stderr).toContain('is not open (it is waived)');
  });

  it('show: open findings by default, JSON with every field', async () => {
    const {
      r,
      ids: [a],
    } = await filed();
    await run(r, ['resolve', 'T-1', '--finding', a!]);
    const open = await run(r, ['show', 'T-1']);
    expect(open.stdout.trim().split('\n')).toHaveLength(2);
    const json = JSON.parse((await run(r, ['show', 'T-1', '--json'])).stdout) as Record<string, unknown>[];
    expect(Object.keys(json[0]!)).toEqual(
      expect.arrayContaining([
        'id',
        'status',
        'origin',
        'round',
        'severity',
        'file',
        'line',
        'criterion',
        'expected',
        'actual',
        'fix',
        'evidence',
      ]),
    );
    expect(json[0]).toMatchObject({
      status: 'open',
      origin: 'qa',
      round: 1,
      severity: 'minor',
      file: 'api/log.py',
      line: null,
      criterion: 'AC2',
      fix: null,
      evidence: null,
    });
    expect(json[0]!['id'] as string).toMatch(/^[0-9a-f]{32}$/);
  });
});
