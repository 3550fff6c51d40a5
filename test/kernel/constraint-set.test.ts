/**
 * src/constraints/constraint-set.ts: index.json and extended.json read as one set of entries by
 * id, each entry knowing its file; Go's `null` lists read as empty; writers put each entry back
 * where it was.
 */
import { describe, expect, it } from 'vitest';
import {
  entryLocation,
  fileOf,
  parseConstraintSet,
  serializeConstraintSet,
  type ConstraintTexts,
} from '../../src/constraints/constraint-set.js';
import { stricterJudgment } from '../../hooks/judgment.js';
import type { ConstraintEntry, ConstraintIndex } from '../../src/types.js';
import { constraint, indexJson } from '../hooks/setup.js';

const extendedJson = (...entries: ConstraintEntry[]): string => indexJson(...entries);

function parsed(texts: ConstraintTexts): ConstraintIndex {
  const r = parseConstraintSet(texts);
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  return r.index;
}

describe('parseConstraintSet', () => {
  it('merges both files; each entry knows its file and its line there', () => {
    const texts = { index: indexJson(constraint('f-a')), extended: extendedJson(constraint('f-b', { globs: ['src/**/*.ts'] })) };
    const set = parsed(texts);
    expect(set.constraints.map((c) => [c.id, fileOf(c)])).toEqual([
      ['f-a', '.agents/constraints/index.json'],
      ['f-b', '.agents/constraints/extended.json'],
    ]);
    expect(entryLocation(texts, set.constraints[1]!)).toEqual({ file: '.agents/constraints/extended.json', line: 5 });
  });

  it('either file may be absent; both absent is an empty set', () => {
    expect(parsed({ index: null, extended: extendedJson(constraint('f-b')) }).constraints.map((c) => c.id)).toEqual(['f-b']);
    expect(parsed({ index: null, extended: null }).constraints).toEqual([]);
  });

  it('an id in both files is an error at its line in extended.json (the gate then fails closed)', () => {
    const r = parseConstraintSet({ index: indexJson(constraint('f-a')), extended: extendedJson(constraint('f-a')) });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.diagnostics.map((d) => [d.file, d.line, d.ruleId])).toEqual([
        ['.agents/constraints/extended.json', 5, 'constraint-index/duplicate-id'],
      ]);
  });

  it('an invalid extended.json makes the set invalid, naming that file', () => {
    const r = parseConstraintSet({ index: indexJson(constraint('f-a')), extended: '{"schema_version": 2, "constraints": []}\n' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics[0]?.file).toBe('.agents/constraints/extended.json');
  });

  it("reads Go's null lists (and null fields) as empty, as upstream's loader does", () => {
    const goEntry = {
      id: 'f-go',
      finding_id: 'f-go',
      title: 'from Go',
      source: 'finding',
      status: 'draft',
      compiled_at: '2026-06-21T00:00:00Z',
      applies_to: { path_globs: null },
      detector: { kind: 'regex', pattern: 'x' },
      evidence: { positive_refs: null, negative_control_refs: null },
      compiler_targets: null,
      file: '',
    };
    const set = parsed({ index: JSON.stringify({ schema_version: 1, constraints: [goEntry] }, null, 2), extended: null });
    expect(set.constraints[0]?.evidence).toEqual({});
    expect(set.constraints[0]?.applies_to.path_globs).toEqual([]);
    expect(parsed({ index: '{"schema_version":1,"constraints":null}', extended: null }).constraints).toEqual([]);
  });
});

describe('serializeConstraintSet', () => {
  it('writes each entry back to the file that holds it; no extended.json when nothing belongs there', () => {
    const set = parsed({ index: indexJson(constraint('f-a')), extended: extendedJson(constraint('f-b', { globs: ['src/**/*.ts'] })) });
    const out = serializeConstraintSet(set);
    expect(parsed({ index: out.index, extended: null }).constraints.map((c) => c.id)).toEqual(['f-a']);
    expect(parsed({ index: null, extended: out.extended }).constraints.map((c) => c.id)).toEqual(['f-b']);
    expect(serializeConstraintSet(parsed({ index: indexJson(constraint('f-a')), extended: null })).extended).toBeNull();
  });
});

describe('the stricter-of judgment over both files', () => {
  const active = constraint('f-a');
  const inIndex = { index: indexJson(active), extended: null };
  const inExtended = { index: indexJson(), extended: extendedJson(active) };

  it('moving an active entry from one file to the other weakens nothing (no entry is held)', () => {
    expect(stricterJudgment(parsed(inIndex), parsed(inExtended)).held.size).toBe(0);
    expect(stricterJudgment(parsed(inExtended), parsed(inIndex)).held.size).toBe(0);
  });

  it('dropping it from either file holds it from before the change', () => {
    for (const before of [inIndex, inExtended]) {
      const j = stricterJudgment(parsed(before), parsed({ index: indexJson(), extended: extendedJson() }));
      expect([...j.held.keys()].map((c) => c.id)).toEqual(['f-a']);
    }
  });
});
