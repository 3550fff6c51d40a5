/**
 * `findings constraint sample <id> [--size N] [--seed S]`: a deterministic random sample of the
 * unlabelled distinct hits, so a person labels 20 representative hits instead of thousands
 * (docs/lifecycle.md, "Sampling"). The same measurement, size and seed give the same sample.
 */
import { createHash } from 'node:crypto';
import { compareStrings } from '../diagnostics.js';
import type { MeasuredHit, Measurement } from './measurement.js';
import { prng } from '../prng.js';

export const DEFAULT_SAMPLE_SIZE = 20;

/** The default seed: derived from the measurement (constraint id and the commit it was measured at), so it is stable until the next measure. */
export function defaultSeed(m: Measurement): number {
  return createHash('sha256').update(`${m.constraint_id}\u0000${m.measured_at_commit}`).digest().readUInt32BE(0);
}

export interface Sample {
  readonly seed: number;
  readonly size: number;
  /** Unlabelled distinct hits to draw from. */
  readonly unlabelled: number;
  /** The drawn hits, sorted by id. */
  readonly hits: MeasuredHit[];
}

/** Draws `size` unlabelled hits (all of them when fewer) with a partial Fisher–Yates shuffle over the hits sorted by id. Pure. */
export function sampleHits(m: Measurement, size: number, seed: number = defaultSeed(m)): Sample {
  const pool = m.hits.filter((h) => h.label === undefined).sort((a, b) => compareStrings(a.id, b.id));
  const rand = prng(seed);
  const n = Math.min(size, pool.length);
  for (let i = 0; i < n; i += 1) {
    const j = i + Math.floor(rand() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return { seed, size, unlabelled: pool.length, hits: pool.slice(0, n).sort((a, b) => compareStrings(a.id, b.id)) };
}
