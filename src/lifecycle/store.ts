/**
 * File I/O of the lifecycle commands. Everything under `.agents/constraints/` is written with
 * temp file + rename under `.agents/constraints/compile.lock`, the compiler's own lock
 * (docs/contracts/compiler.md#atomicity-and-locking), so a compile and an activation never interleave.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { readIfExists } from '../fs/atomic.js';
import { repoTarget, writeRepoFileIfChanged } from '../fs/repo-write.js';
import { withLock } from '../fs/lock.js';
import { Layout, measurementPath } from '../layout.js';
import { parseConstraintIndex, serializeConstraintIndex } from '../constraints/index-file.js';
import { LEGACY_ID_PREFIX, type ConstraintIndex } from '../types.js';
import { normaliseAppliesTo, normaliseDetector } from '../constraints/shape.js';
import { parseMeasurement, serializeMeasurement, type Measurement } from './measurement.js';

/** Absolute path of a repository-relative layout path, refusing one that leaves the root. */
export function inside(root: string, rel: string): string {
  return repoTarget(root, rel);
}

export type IndexRead =
  | { readonly kind: 'ok'; readonly index: ConstraintIndex }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly diagnostics: readonly Diagnostic[] };

/** Reads `.agents/constraints/index.json` from the working tree. */
export async function readIndex(root: string): Promise<IndexRead> {
  const data = await readIfExists(inside(root, Layout.constraintIndex));
  if (data === null) return { kind: 'missing' };
  const parsed = parseConstraintIndex(data.toString('utf8'));
  return parsed.ok ? { kind: 'ok', index: parsed.index } : { kind: 'invalid', diagnostics: parsed.diagnostics };
}

/** Runs `fn` under compile.lock. */
export function withCompileLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  return withLock(inside(root, Layout.compileLock), fn);
}

/**
 * Reads the index under compile.lock, lets `mutate` change it (returning its result), and writes
 * it back atomically when the canonical bytes changed. Call inside withCompileLock.
 */
export async function mutateIndexLocked<T>(
  root: string,
  mutate: (index: ConstraintIndex) => { index: ConstraintIndex | null; result: T },
): Promise<{ read: IndexRead; result?: T; written: boolean }> {
  const read = await readIndex(root);
  if (read.kind !== 'ok') return { read, written: false };
  const { index, result } = mutate(read.index);
  if (index === null) return { read, result, written: false };
  const state = await writeRepoFileIfChanged(root, Layout.constraintIndex, serializeConstraintIndex(index));
  return { read, result, written: state !== 'unchanged' };
}

export type MeasurementRead =
  | { readonly kind: 'ok'; readonly measurement: Measurement; readonly ref?: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly diagnostics: readonly Diagnostic[] };

/**
 * Reads a constraint's measurement file from the working tree: `<id>.json`, or, when absent, the
 * `c-<id>.json` an earlier release wrote (its `c-` constraint_id and old-shape detector are read
 * as the current ones; the next `measure` writes `<id>.json`). `ref` is the file read.
 */
export async function readMeasurement(root: string, id: string): Promise<MeasurementRead> {
  let rel = measurementPath(id);
  let data = await readIfExists(inside(root, rel));
  if (data === null) {
    rel = measurementPath(`${LEGACY_ID_PREFIX}${id}`);
    data = await readIfExists(inside(root, rel));
  }
  if (data === null) return { kind: 'missing' };
  const parsed = parseMeasurement(data.toString('utf8'), rel);
  if (!parsed.ok) return { kind: 'invalid', diagnostics: parsed.diagnostics };
  const m = parsed.measurement;
  if (m.constraint_id !== id && m.constraint_id !== `${LEGACY_ID_PREFIX}${id}`) {
    return {
      kind: 'invalid',
      diagnostics: [
        diagnostic({
          file: rel,
          line: 1,
          ruleId: 'measurement/wrong-id',
          message: `constraint_id "${m.constraint_id}" does not match the file name (expected "${id}")`,
        }),
      ],
    };
  }
  const measurement: Measurement = {
    ...m,
    constraint_id: id,
    detector: normaliseDetector(m.detector as unknown as Record<string, unknown>),
    applies_to: normaliseAppliesTo(m.applies_to as unknown as Record<string, unknown>),
  };
  return { kind: 'ok', measurement, ref: rel };
}

/** Writes a measurement (canonical bytes, only when changed). Call inside withCompileLock. */
export function writeMeasurement(root: string, m: Measurement): Promise<'created' | 'updated' | 'unchanged'> {
  return writeRepoFileIfChanged(root, measurementPath(m.constraint_id), serializeMeasurement(m));
}

/** Diagnostics for an index that cannot be used, or that is missing. */
export function indexProblem(read: Exclude<IndexRead, { kind: 'ok' }>): Diagnostic[] {
  if (read.kind === 'invalid') return [...read.diagnostics];
  return [
    diagnostic({
      file: Layout.constraintIndex,
      ruleId: 'lifecycle/no-index',
      message: 'there is no constraint index; run `findings compile` first',
    }),
  ];
}
