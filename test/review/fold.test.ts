import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planPass, planResolutions, planWaiver, splitResolution } from '../../src/review/actions.js';
import { parseLedger } from '../../src/review/events.js';
import { foldEvents, type ReviewFinding } from '../../src/review/ledger.js';
import { planFiling } from '../../src/review/producer.js';
import { appendText } from '../../src/review/store.js';
import type { Origin, ReviewEvent, Severity } from '../../src/review/types.js';

const AT = '2026-01-01T00:00:00Z';
const SHA = 'c'.repeat(40);

function file(origin: Origin, severities: Severity[], existing: ReviewFinding[] = [], at = AT): ReviewEvent[] {
  return planFiling({
    task: 'T-1',
    origin,
    taskFile: null,
    source: 'F.json',
    elementLines: [],
    issues: [],
    actor: 'qa@x.io',
    at,
    existing,
    findings: severities.map((severity, i) => ({ severity, expected: `e${i}`, actual: `a${i}` })),
  }).events;
}
const strip = (fs: ReviewFinding[]) => fs.map(({ ledgerLine: _l, ...rest }) => rest);

describe('foldEvents', () => {
  const round1 = file('qa', ['blocker', 'minor', 'nit']);
  const f1 = foldEvents(round1);
  const resolved = planResolutions(
    'T-1',
    [{ input: f1[0]!.shortId, rev: 'HEAD', commit: SHA, note: 'fixed' }],
    f1,
    [],
    'dev@x.io',
    AT,
  ).events;
  const afterResolve = foldEvents([...round1, ...resolved]);
  const verified = planPass('T-1', 'qa', afterResolve, 'qa@x.io', AT).events;
  const waived = planWaiver('T-1', f1[1]!.shortId, 'cosmetic', f1, [], { auditor: ['aud@x.io'] }, 'aud@x.io', AT).events;
  const all = [...round1, ...resolved, ...verified, ...waived];

  it('derives statuses from the events', () => {
    expect(foldEvents(all).map((f) => f.status)).toEqual(['verified', 'waived', 'open']);
  });
  it('is order-independent and counts duplicate events once (fast-check)', () => {
    const expected = strip(foldEvents(all));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: all.length - 1 }), { maxLength: 12 }), fc.func(fc.integer()), (dups, key) => {
        const withDups = [...all, ...dups.map((i) => all[i]!)];
        const shuffled = withDups
          .map((e, i) => ({ e, k: key(i) }))
          .sort((a, b) => a.k - b.k)
          .map((x) => x.e);
        expect(strip(foldEvents(shuffled))).toEqual(expected);
      }),
    );
  });
  it('ignores transitions the contract forbids', () => {
    const blockerId = f1[0]!.id;
    const bogusVerify: ReviewEvent = {
      event_id: 'f'.repeat(32),
      type: 'verified',
      task: 'T-1',
      finding_id: f1[2]!.id,
      origin: 'qa',
      actor: null,
      at: AT,
    };
    const bogusWaive: ReviewEvent = {
      event_id: 'e'.repeat(32),
      type: 'waived',
      task: 'T-1',
      finding_id: blockerId,
      note: 'meh',
      actor: 'x@x.io',
      at: AT,
    };
    const orphan: ReviewEvent = {
      event_id: 'd'.repeat(32),
      type: 'addressed',
      task: 'T-1',
      finding_id: '9'.repeat(32),
      commit: SHA,
      note: null,
      actor: null,
      at: AT,
    };
    expect(foldEvents([...round1, bogusVerify, bogusWaive, orphan]).map((f) => f.status)).toEqual(['open', 'open', 'open']);
  });
  it('parses lines back to the same state, and appends start on a new line', () => {
    const text = appendText('', round1).trimEnd(); // last line without its newline
    const next = appendText(text, resolved);
    expect(next).toContain('}\n{');
    const parsed = parseLedger(next, '.agents/reviews/T-1.jsonl', 'T-1');
    expect(parsed.diagnostics).toEqual([]);
    expect(foldEvents(parsed.events).map((f) => [f.status, f.ledgerLine])).toEqual([
      ['addressed', 1],
      ['open', 2],
      ['open', 3],
    ]);
  });
});

describe('verification per origin (planPass)', () => {
  const qa = file('qa', ['major', 'major']);
  const pm = file('pm', ['major'], foldEvents(qa));
  const events = [...qa, ...pm];
  const folded = foldEvents(events);
  const resolveAll = planResolutions(
    'T-1',
    folded.slice(0, 3).map((f) => ({ input: f.id, rev: 'HEAD', commit: SHA, note: null })),
    folded,
    [],
    null,
    AT,
  ).events;
  const state = foldEvents([...events, ...resolveAll.slice(0, 1), ...resolveAll.slice(2)]); // qa#2 left open
  it.each([
    ['qa', 1],
    ['pm', 1],
    ['pr_gate', 0],
    ['ceo', 0],
  ] as const)('a %s pass verifies only addressed %s findings (%i)', (origin, n) => {
    const plan = planPass('T-1', origin, state, null, AT);
    expect(plan.applied).toHaveLength(n);
    expect(plan.applied.every((f) => f.origin === origin && f.status === 'addressed')).toBe(true);
    const after = foldEvents([...events, ...resolveAll.slice(0, 1), ...resolveAll.slice(2), ...plan.events]);
    expect(after.filter((f) => f.status === 'open')).toHaveLength(1); // open ones are untouched
  });
});

describe('resolutions', () => {
  const ev = file('qa', ['major', 'minor']);
  const fs = foldEvents(ev);
  const other = foldEvents(file('qa', ['nit']).map((e) => ({ ...e, task: 'T-2' })));
  const plan = (input: string, findings = fs) =>
    planResolutions('T-1', [{ input, rev: 'HEAD', commit: SHA, note: null }], findings, other, null, AT);
  it('reports unknown ids, ids of another task, and already-addressed findings; valid ones still apply', () => {
    const p = planResolutions(
      'T-1',
      [
        { input: fs[0]!.shortId, rev: 'HEAD', commit: SHA, note: null },
        { input: 'ffffffff', rev: 'HEAD', commit: SHA, note: null },
        { input: other[0]!.shortId, rev: 'HEAD', commit: SHA, note: null },
      ],
      fs,
      other,
      null,
      AT,
    );
    expect(p.applied.map((f) => f.id)).toEqual([fs[0]!.id]);
    expect(p.problems).toEqual([expect.stringContaining('no finding with this id'), expect.stringContaining('belongs to task "T-2"')]);
    const addressed = foldEvents([...ev, ...p.events]);
    expect(plan(fs[0]!.shortId, addressed).problems).toEqual([expect.stringContaining('is not open (it is addressed)')]);
  });
  it('reports a commit that does not resolve', () => {
    const p = planResolutions('T-1', [{ input: fs[0]!.id, rev: 'nope', commit: null, note: null }], fs, [], null, AT);
    expect(p.problems).toEqual([expect.stringContaining('commit "nope" does not resolve')]);
  });
  it.each([
    ['a1b2c3d4', { id: 'a1b2c3d4', rev: null, note: null }],
    ['a1b2c3d4:abc123', { id: 'a1b2c3d4', rev: 'abc123', note: null }],
    ['a1b2c3d4:abc123:fixed it: really', { id: 'a1b2c3d4', rev: 'abc123', note: 'fixed it: really' }],
    ['a1b2c3d4::note only', { id: 'a1b2c3d4', rev: null, note: 'note only' }],
  ])('splits %j', (input, expected) => {
    expect(splitResolution(input)).toEqual(expected);
  });
});

describe('waiver refusals (planWaiver)', () => {
  const ev = file('qa', ['blocker', 'major', 'minor', 'nit']);
  const fs = foldEvents(ev);
  const roles = { auditor: ['aud@x.io'] };
  const waive = (i: number, note = 'cosmetic, tracked in T-9', actor: string | null = 'aud@x.io', findings = fs) =>
    planWaiver('T-1', fs[i]!.shortId, note, findings, [], roles, actor, AT);
  it.each([
    ['a blocker', () => waive(0), 'must be fixed, never waived'],
    ['a major', () => waive(1), 'must be fixed, never waived'],
    ['a non-auditor', () => waive(2, 'fine', 'dev@x.io'), 'not listed under "auditor"'],
    ['no identity', () => waive(2, 'fine', null), 'git config user.email'],
    ['an empty note', () => waive(3, '  '), 'placeholder'],
    ['a placeholder note', () => waive(3, 'N/A'), 'placeholder'],
    ['an unknown id', () => planWaiver('T-1', 'ffffffff', 'x y', fs, [], roles, 'aud@x.io', AT), 'no finding'],
    [
      'a finding that is not open',
      () => waive(3, 'ok then, cosmetic', 'aud@x.io', foldEvents([...ev, ...waive(3).events])),
      'is not open (it is waived)',
    ],
  ])('refuses %s', (_name, run, message) => {
    const p = run();
    expect(p.events).toEqual([]);
    expect(p.problems.join('\n')).toContain(message);
  });
  it('waives an open minor and records who and when', () => {
    const p = waive(2);
    expect(p.events).toEqual([expect.objectContaining({ type: 'waived', actor: 'aud@x.io', at: AT, note: 'cosmetic, tracked in T-9' })]);
    expect(foldEvents([...ev, ...p.events])[2]!.status).toBe('waived');
  });
});

describe('parseLedger', () => {
  it('names unknown fields of an event', () => {
    const line = JSON.stringify({
      event_id: '1'.repeat(32),
      type: 'verified',
      task: 'T-1',
      finding_id: '2'.repeat(32),
      origin: 'qa',
      actor: null,
      at: AT,
      note: 'x',
    });
    expect(parseLedger(line, 'L', 'T-1').diagnostics.map((d) => d.message)).toEqual(['unknown field "note" for a verified event']);
  });
});
