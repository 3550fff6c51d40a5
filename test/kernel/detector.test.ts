import { describe, expect, it } from 'vitest';
import { compileDetector, evaluate, patternProblem, violates } from '../../src/match/detector.js';

function matcher(spec: Parameters<typeof compileDetector>[0]) {
  const r = compileDetector(spec);
  if (!r.ok) throw new Error(r.problem);
  return r.matcher;
}

describe('patternProblem', () => {
  it.each([
    ['(a+)+$', /unsafe/],
    ['(x*)*y', /unsafe/],
    ['([a-z]+)*@', /unsafe/],
    ['(unclosed', /does not compile/],
  ])('refuses %s', (pattern, reason) => {
    expect(patternProblem(pattern)).toMatch(reason);
  });
  it('accepts ordinary patterns and refuses unknown flags', () => {
    expect(patternProblem('console\\.log\\(')).toBeNull();
    expect(patternProblem('a', 'g')).toMatch(/flags/);
    expect(patternProblem('a', 'imsu')).toBeNull();
  });
});

describe('compileDetector', () => {
  it('refuses advisory-only kinds and content_pattern without a mode', () => {
    expect(compileDetector({ kind: 'paired_files', pattern: 'x' })).toMatchObject({ ok: false, problem: expect.stringMatching(/advisory/) });
    expect(compileDetector({ kind: 'content_pattern', pattern: 'x' })).toMatchObject({ ok: false, problem: expect.stringMatching(/mode/) });
    expect(compileDetector({ kind: 'regex' })).toMatchObject({ ok: false });
  });
});

describe('evaluate', () => {
  it('reports each match with 1-based line and column', () => {
    const m = matcher({ kind: 'regex', pattern: 'TODO' });
    expect(evaluate(m, 'a\n  TODO x TODO\nTODO').hits).toEqual([
      { line: 2, column: 3, match: 'TODO' },
      { line: 2, column: 10, match: 'TODO' },
      { line: 3, column: 1, match: 'TODO' },
    ]);
  });
  it('terminates on zero-length matches', () => {
    expect(evaluate(matcher({ kind: 'regex', pattern: '^', flags: 'm' }), 'a\nb').hits).toHaveLength(2);
  });
  it('must_not_contain flags a match; must_contain flags its absence once at 1:1', () => {
    const not = matcher({ kind: 'content_pattern', mode: 'must_not_contain', pattern: 'eval\\(' });
    const must = matcher({ kind: 'content_pattern', mode: 'must_contain', pattern: 'SPDX-License' });
    expect(violates(not, 'x = eval(y)')).toBe(true);
    expect(violates(not, 'fine')).toBe(false);
    expect(evaluate(must, 'no header').hits).toEqual([{ line: 1, column: 1, match: '' }]);
    expect(violates(must, '// SPDX-License-Identifier: MIT')).toBe(false);
  });
  it('honours flags', () => {
    expect(violates(matcher({ kind: 'regex', pattern: 'todo', flags: 'i' }), 'TODO')).toBe(true);
    expect(violates(matcher({ kind: 'regex', pattern: 'todo' }), 'TODO')).toBe(false);
  });
  it('caps the number of hits', () => {
    expect(evaluate(matcher({ kind: 'regex', pattern: 'a' }), 'a'.repeat(50), { maxHits: 7 }).hits).toHaveLength(7);
  });
  it('reports an evaluation error when the budget is exceeded', () => {
    const m = matcher({ kind: 'regex', pattern: 'b' });
    const r = evaluate(m, 'ab'.repeat(200_000), { budgetMs: -1 });
    expect(r.error).toMatch(/budget/);
  });
});
