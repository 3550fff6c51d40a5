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
import {
  hasConstraintFiles,
  originOf,
  parseConstraintSet,
  serializeConstraintSet,
  serializeExtendedIndex,
  type ConstraintTexts,
} from '../constraints/constraint-set.js';
import { LEGACY_ID_PREFIX, type ConstraintIndex } from '../types.js';
import { normaliseAppliesTo, normaliseDetector } from '../constraints/shape.js';
import { parseMeasurement, serializeMeasurement, type Measurement } from './measurement.js';
import { kindsOf, loadDetectorKinds } from '../match/detector.js';

/** Absolute path of a repository-relative layout path, refusing one that leaves the root. */
export function inside(root: string, rel: string): string {
  return repoTarget(root, rel);
}

export type IndexRead =
  | { readonly kind: 'ok'; readonly index: ConstraintIndex }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly diagnostics: readonly Diagnostic[] };

/** The working tree's constraint files (index.json, extended.json). */
export async function readConstraintTexts(root: string): Promise<ConstraintTexts> {
  const [index, extended] = await Promise.all([
    readIfExists(inside(root, Layout.constraintIndex)),
    readIfExists(inside(root, Layout.extendedIndex)),
  ]);
  return { index: index?.toString('utf8') ?? null, extended: extended?.toString('utf8') ?? null };
}

/**
 * Reads the constraint set (`.agents/constraints/index.json` and `extended.json`, one set of
 * entries by id: src/constraints/constraint-set.ts) from the working tree; missing when neither
 * exists. The detector kinds its entries use are loaded, so lifecycle code may compile them.
 */
export async function readIndex(root: string): Promise<IndexRead> {
  const texts = await readConstraintTexts(root);
  if (!hasConstraintFiles(texts)) return { kind: 'missing' };
  const parsed = parseConstraintSet(texts);
  if (!parsed.ok) return { kind: 'invalid', diagnostics: parsed.diagnostics };
  await loadDetectorKinds(kindsOf(parsed.index.constraints));
  return { kind: 'ok', index: parsed.index };
}

/** Runs `fn` under compile.lock. */
export function withCompileLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  return withLock(inside(root, Layout.compileLock), fn);
}

/**
 * Reads the constraint set under compile.lock, lets `mutate` change it (returning its result),
 * and writes each entry back to the file that holds it (its `origin`), atomically and only when a
 * file's canonical bytes changed. Call inside withCompileLock.
 */
export async function mutateIndexLocked<T>(
  root: string,
  mutate: (index: ConstraintIndex) => { index: ConstraintIndex | null; result: T },
): Promise<{ read: IndexRead; result?: T; written: boolean }> {
  const texts = await readConstraintTexts(root);
  const read = await readIndex(root);
  if (read.kind !== 'ok') return { read, written: false };
  const { index, result } = mutate(read.index);
  if (index === null) return { read, result, written: false };
  const out = serializeConstraintSet(index);
  let written = false;
  // extended.json is written when it holds entries or already exists (it is never created empty).
  if (out.extended !== null || texts.extended !== null) {
    const extended = out.extended ?? serializeExtendedIndex([]);
    written = (await writeRepoFileIfChanged(root, Layout.extendedIndex, extended)) !== 'unchanged';
  }
  if (texts.index !== null || index.constraints.some((c) => originOf(c) === 'index') || out.extended === null)
    written = (await writeRepoFileIfChanged(root, Layout.constraintIndex, out.index)) !== 'unchanged' || written;
  return { read, result, written };
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
