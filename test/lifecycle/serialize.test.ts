/**
 * serializeMeasurement writes each hit in key order directly (no per-hit re-ranking of keys, which
 * cost time and memory on long histories); its bytes must stay exactly stableStringify's.
 */
import { describe, expect, it } from 'vitest';
import { stableStringify } from '../../src/json-stable.js';
import { MEASUREMENT_KEY_ORDER, serializeMeasurement, type Measurement, type MeasuredHit } from '../../src/lifecycle/measurement.js';
import { prng } from '../../src/prng.js';

function measurement(seed: number): Measurement {
  const rand = prng(seed);
  const hits: MeasuredHit[] = Array.from({ length: 200 }, (_, i) => {
    const commit = Math.floor(rand() * 1e12)
      .toString(16)
      .padStart(40, '0');
    const path = `src/${i % 7}/f ${i}.ts`;
    const line = 1 + Math.floor(rand() * 500);
    const r = rand();
    return {
      // Keys deliberately out of order.
      seen: Math.floor(rand() * 5),
      ...(r < 0.3 ? { note: `why ${i} "quoted"` } : {}),
      ...(r < 0.6 ? { label: r < 0.45 ? ('true_positive' as const) : ('false_positive' as const) } : {}),
      line,
      path,
      commit,
      id: `${commit.slice(0, 8)}:${path}:${line}`,
    };
  });
  return {
    errors: [
      { message: 'matching took longer than the 250 ms budget', path: 'b.ts', commit: 'f'.repeat(40) },
      { message: 'x', path: 'a.ts', commit: 'f'.repeat(40) },
    ],
    hits,
    samples: 1234,
    applies_to: { path_globs: ['src/**'], scope: 'files' },
    detector: { pattern: '\\beval\\(', kind: 'regex' },
    commits: 99,
    range: { commits: null, since: null },
    measured_at_commit: 'a'.repeat(40),
    constraint_id: 'no-eval',
    version: 2,
  } as Measurement;
}

describe('serializeMeasurement', () => {
  it('writes the same bytes as stableStringify of the sorted measurement', () => {
    for (const seed of [1, 2, 3]) {
      const m = measurement(seed);
      const sorted = {
        ...m,
        hits: [...m.hits].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
        errors: [...m.errors].sort((a, b) => (a.commit < b.commit ? -1 : a.commit > b.commit ? 1 : a.path < b.path ? -1 : 1)),
      };
      expect(serializeMeasurement(m)).toBe(stableStringify(sorted, MEASUREMENT_KEY_ORDER));
    }
  });
});
