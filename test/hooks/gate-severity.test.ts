/** The gate's severity rules as fast unit tests: by status, for evaluation errors, and for entries whose status and mode disagree. */
import { describe, expect, it } from 'vitest';
import { applies, blocks, runGate } from '../../hooks/gate.js';
import { heldNote, stricterJudgment } from '../../hooks/judgment.js';
import type { ConstraintEntry } from '../../src/types.js';
import { constraint } from './setup.js';

const options = { budgetMs: 250, skip: new Set<string>(), bypass: null, indexFile: 'i.json', indexText: '' };
const files = [{ path: 'a.js', text: 'eval(1);\n', added: undefined }];
const withMode = (c: ConstraintEntry, mode: ConstraintEntry['enforcement_mode']): ConstraintEntry => ({ ...c, enforcement_mode: mode });
const severities = async (...entries: ConstraintEntry[]): Promise<string[]> =>
  (await runGate({ schema_version: 1, constraints: entries }, files, options)).map((d) => `${d.ruleId}:${d.severity}`);

describe('gate severity by status', () => {
  it('an active hit is an error, a shadow hit a warning, a retired entry is not applied', async () => {
    expect(await severities(constraint('a'), constraint('s', { status: 'shadow' }), constraint('r', { status: 'retired' }))).toEqual([
      'constraint/a:error',
      'constraint/s:warning',
    ]);
  });

  it('an evaluation error blocks for an active constraint and warns for a shadow', async () => {
    // Lookahead cannot run on the linear engine: the detector cannot be evaluated.
    const broken = { pattern: 'eval(?=\\()' };
    expect(await severities(constraint('a', broken), constraint('s', { ...broken, status: 'shadow' }))).toEqual([
      'constraint/a:error',
      'constraint/s:warning',
    ]);
  });
});

describe('an entry whose status and enforcement_mode disagree blocks', () => {
  it.each([
    ['shadow', 'block'],
    ['shadow', 'off'],
    ['active', 'warn'],
    ['active', 'off'],
    ['retired', 'block'],
    ['retired', 'warn'],
  ] as const)('%s + %s', async (status, mode) => {
    const c = withMode(constraint('x', { status }), mode);
    expect(applies(c)).toBe(true);
    expect(blocks(c)).toBe(true);
    expect(await severities(c)).toEqual(['constraint/x:error']);
  });

  it('the consistent pairs keep their meaning', () => {
    expect(blocks(constraint('a'))).toBe(true);
    expect(blocks(constraint('s', { status: 'shadow' }))).toBe(false);
    expect(applies(constraint('r', { status: 'retired' }))).toBe(false);
  });
});

describe('stricterJudgment', () => {
  const active = constraint('x');
  const ids = (j: ReturnType<typeof stricterJudgment>): string[] => j.index.constraints.map((c) => `${c.status}:${c.detector.pattern}`);

  it('no index before (a base-less tree): the index after judges alone', () => {
    const after = { schema_version: 1 as const, constraints: [constraint('x', { status: 'shadow' })] };
    expect(stricterJudgment(null, after).index).toBe(after);
  });

  it('a demotion is judged by the blocking entry before it, with the note that says why', () => {
    const j = stricterJudgment(
      { schema_version: 1, constraints: [active] },
      { schema_version: 1, constraints: [constraint('x', { status: 'shadow' })] },
    );
    expect(ids(j)).toEqual(['active:\\beval\\(']);
    expect([...j.held.values()]).toEqual([heldNote('x', 'demotes')]);
  });

  it('a pattern change keeps the old detector blocking beside the new one', () => {
    const j = stricterJudgment(
      { schema_version: 1, constraints: [active] },
      { schema_version: 1, constraints: [constraint('x', { status: 'shadow', pattern: 'exec\\(' })] },
    );
    expect(ids(j).sort()).toEqual(['active:\\beval\\(', 'shadow:exec\\(']);
    expect([...j.held.keys()].map((c) => c.detector.pattern)).toEqual(['\\beval\\(']);
  });

  it('a removal or retirement keeps the entry before it; a shadow before it only warned, so nothing is held', () => {
    expect(ids(stricterJudgment({ schema_version: 1, constraints: [active] }, { schema_version: 1, constraints: [] }))).toEqual([
      'active:\\beval\\(',
    ]);
    expect(
      ids(
        stricterJudgment(
          { schema_version: 1, constraints: [active] },
          { schema_version: 1, constraints: [constraint('x', { status: 'retired' })] },
        ),
      ),
    ).toEqual(['active:\\beval\\(']);
    const shadow = constraint('x', { status: 'shadow' });
    expect(
      stricterJudgment({ schema_version: 1, constraints: [shadow] }, { schema_version: 1, constraints: [] }).index.constraints,
    ).toEqual([]);
  });

  it('an unchanged or stricter index after the change is applied as it is', () => {
    const after = { schema_version: 1 as const, constraints: [active, constraint('new')] };
    const j = stricterJudgment({ schema_version: 1, constraints: [active] }, after);
    expect(j.index.constraints).toEqual(after.constraints);
    expect(j.held.size).toBe(0);
  });

  it("a held entry's diagnostics carry the note, before the explain pointer", async () => {
    const j = stricterJudgment({ schema_version: 1, constraints: [active] }, { schema_version: 1, constraints: [] });
    const out = await runGate(j.index, files, { ...options, held: j.held });
    expect(out[0]!.notes!.at(-2)).toBe(heldNote('x', 'removes'));
    expect(out[0]!.notes!.at(-1)).toBe('findings explain x');
  });
});
