/** Every evaluation stops within its budget (src/match/bounded.ts). Needs the built worker (npm run build). */
import { describe, expect, it } from 'vitest';
import { BoundedEvaluator, fitsInline } from '../../src/match/bounded.js';
import { compileDetector, evaluate, type Matcher } from '../../src/match/detector.js';

const matcher = (pattern: string): Matcher => {
  const r = compileDetector({ kind: 'regex', pattern });
  if (!r.ok) throw new Error(r.problem);
  return r.matcher;
};

describe('bounded evaluation', () => {
  it('ordinary files run inline; a large text × program does not', () => {
    expect(fitsInline(matcher('\\beval\\('), 20_000, 250)).toBe(true);
    expect(fitsInline(matcher('[a-z]{1000}[0-9]'), 1_000_001, 250)).toBe(false);
  });

  it('a search that would run for seconds is stopped at the budget and reported as an evaluation error', async () => {
    const e = new BoundedEvaluator();
    try {
      const r = await e.evaluate(matcher('[a-z]{1000}[0-9]'), `${'a'.repeat(1_000_000)}1\n`, 100);
      expect(r.error).toMatch(/longer than the 100 ms budget/);
      // The evaluator is usable again after a stopped search.
      const again = await e.evaluate(matcher('\\beval\\('), `${'x'.repeat(1_000_000)}\neval(1)\n`, 5000);
      expect(again).toEqual(evaluate(matcher('\\beval\\('), `${'x'.repeat(1_000_000)}\neval(1)\n`, { budgetMs: Number.POSITIVE_INFINITY }));
    } finally {
      e.close();
    }
  });
});
