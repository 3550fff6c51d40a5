import { describe, expect, it } from 'vitest';
import { compileDetector, evaluate, patternProblem, violates } from '../../src/match/detector.js';
import type { RegexMatcher } from '../../src/match/regex.js';

function matcher(spec: Parameters<typeof compileDetector>[0]): RegexMatcher {
  const r = compileDetector(spec);
  if (!r.ok) throw new Error(r.problem);
  return r.matcher as RegexMatcher;
}

describe('patternProblem', () => {
  it.each([
    ['(a+)+$', /unsafe/],
    ['(x*)*y', /unsafe/],
    ['([a-z]+)*@', /unsafe/],
    ['(unclosed', /does not compile/],
    ['a(?=b)', /lookahead or a backreference/],
    ['a(?!b)', /lookahead or a backreference/],
    ['(a)\\1', /lookahead or a backreference/],
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
    expect(compileDetector({ kind: 'paired_files', pattern: 'x' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/advisory/),
    });
    expect(compileDetector({ kind: 'content_pattern', pattern: 'x' })).toMatchObject({ ok: false, problem: expect.stringMatching(/mode/) });
    expect(compileDetector({ kind: 'regex' })).toMatchObject({ ok: false });
  });
});

describe('evaluate', () => {
  it('reports each match with 1-based line and column', () => {
    const m = matcher({ kind: 'regex', pattern: 'TODO' });
    expect(evaluate(m, 'a\n  TODO x TODO\nTODO').hits).toEqual([
      { line: 2, endLine: 2, column: 3, match: 'TODO' },
      { line: 2, endLine: 2, column: 10, match: 'TODO' },
      { line: 3, endLine: 3, column: 1, match: 'TODO' },
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
    expect(evaluate(must, 'no header').hits).toEqual([{ line: 1, endLine: 1, column: 1, match: '' }]);
    expect(violates(must, '// SPDX-License-Identifier: MIT')).toBe(false);
  });
  it('honours flags', () => {
    expect(violates(matcher({ kind: 'regex', pattern: 'todo', flags: 'i' }), 'TODO')).toBe(true);
    expect(violates(matcher({ kind: 'regex', pattern: 'todo' }), 'TODO')).toBe(false);
  });
  it('runs in linear time where V8 would backtrack for ever', () => {
    expect(evaluate(matcher({ kind: 'regex', pattern: '(a|aa)+$', flags: 'i' }), `${'a'.repeat(60)}!`).hits).toEqual([]);
    expect(evaluate(matcher({ kind: 'regex', pattern: '\\w+x' }), 'w'.repeat(300_000)).hits).toEqual([]);
  });
  it('runs captureless lookbehind (linear in re2js)', () => {
    expect(
      evaluate(matcher({ kind: 'regex', pattern: '(?<!\\.)log\\(' }), 'log(1)\nconsole.log(2)\n  log(3)').hits.map((h) => h.line),
    ).toEqual([1, 3]);
  });
  it('reports columns in UTF-16 code units, as editors do', () => {
    expect(evaluate(matcher({ kind: 'regex', pattern: 'TODO' }), 'é😀 TODO').hits).toEqual([
      { line: 1, endLine: 1, column: 5, match: 'TODO' },
    ]);
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

describe('buildPrefilter', () => {
  it('reports exactly the matchers whose pattern occurs, across flag sets and lookbehinds', async () => {
    const { buildPrefilter } = await import('../../src/match/detector.js');
    const a = matcher({ kind: 'regex', pattern: 'alpha' });
    const b = matcher({ kind: 'regex', pattern: 'BETA', flags: 'i' });
    const c = matcher({ kind: 'regex', pattern: '(?<!x)gamma' });
    const d = matcher({ kind: 'content_pattern', mode: 'must_contain', pattern: 'SPDX' });
    const pf = buildPrefilter([a, b, c, d]);
    const names = (text: string) => [a, b, c, d].filter((m) => pf.matching(text).has(m)).map((m) => m.source);
    expect(names('alpha beta xgamma')).toEqual(['alpha', 'BETA']);
    expect(names('gamma SPDX')).toEqual(['(?<!x)gamma', 'SPDX']);
    expect(names('nothing')).toEqual([]);
  });
});
