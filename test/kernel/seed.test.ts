/** The fault tests' seeded randomness is reproducible from the printed seed. */
import { describe, expect, it } from 'vitest';
import { prng, seededRandom } from '../helpers/seed.js';

describe('seeded randomness', () => {
  it('the same FINDINGS_TEST_SEED gives the same kill times', () => {
    const a = seededRandom('a', { FINDINGS_TEST_SEED: '4711' });
    const b = seededRandom('b', { FINDINGS_TEST_SEED: '4711' });
    expect(a.seed).toBe(4711);
    const xs = Array.from({ length: 5 }, () => a.random());
    expect(Array.from({ length: 5 }, () => b.random())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(prng(4712)()).not.toBe(prng(4711)());
  });
});
