import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isSafePattern, quickSafeVerdict } from '../../src/match/safe-pattern.js';

const safeRegex = createRequire(import.meta.url)('safe-regex2') as (p: string) => boolean;

/** A small deterministic PRNG (mulberry32), so the sample is the same on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'a',
  'b',
  '_',
  '.',
  '\\',
  '\\b',
  '\\d',
  '\\(',
  '\\.',
  '\\x41',
  '\\cA',
  '\\1',
  '*',
  '+',
  '?',
  '|',
  '^',
  '$',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '{2}',
  '1',
  ',',
];

describe('quickSafeVerdict (the safe-regex2 verdict without loading it)', () => {
  it('answers the common constraint patterns itself', () => {
    for (const p of ['\\bforbidden_call_7\\(', 'console\\.log\\(', 'eval\\s*\\(', 'TODO:? .+', 'a+b*c?'])
      expect(quickSafeVerdict(p)).toBe(true);
  });

  it('leaves groups, classes, braces, stacked quantifiers and > 25 repetitions to safe-regex2', () => {
    for (const p of ['(a+)+', '[ab]+', 'a{2}', 'a+?', 'a*+', `${'a*'.repeat(26)}`, '\\b*', '\\']) expect(quickSafeVerdict(p)).toBeNull();
    expect(isSafePattern('(a+)+')).toBe(false);
    expect(isSafePattern('a+?')).toBe(safeRegex('a+?'));
    expect(isSafePattern('a*'.repeat(26))).toBe(false);
  });

  it('never disagrees with safe-regex2 (20,000 generated patterns)', () => {
    const random = prng(12);
    let answered = 0;
    for (let n = 0; n < 20_000; n += 1) {
      const length = 1 + Math.floor(random() * 14);
      let p = '';
      for (let k = 0; k < length; k += 1) p += PIECES[Math.floor(random() * PIECES.length)];
      if (n % 50 === 0) p += 'x+'.repeat(20 + Math.floor(random() * 10));
      const quick = quickSafeVerdict(p);
      if (quick !== null) {
        answered += 1;
        expect({ p, verdict: safeRegex(p) }).toEqual({ p, verdict: quick });
      }
      expect(isSafePattern(p)).toBe(safeRegex(p));
    }
    expect(answered).toBeGreaterThan(1000);
  });
});
