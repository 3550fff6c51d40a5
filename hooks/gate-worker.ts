/**
 * The worker side of hooks/gate-chunks.ts: runs the gate (prepared once) over its share of the files, chunk by
 * chunk, posting each chunk's diagnostics (and so its progress) back. The index's entries are
 * rebuilt here, so the judgment's held entries are named by their position in the index.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ConstraintIndex } from '../src/types.js';
import { kindsOf, loadDetectorKinds } from '../src/match/detector.js';
import { prepareGate, type CheckedFile, type GateOptions } from './gate.js';

export interface GateWorkerData {
  readonly index: ConstraintIndex;
  readonly files: readonly CheckedFile[];
  readonly options: Omit<GateOptions, 'held'>;
  /** [position in index.constraints, note] of each held entry. */
  readonly held: readonly (readonly [number, string])[];
  readonly chunkSize: number;
}

export type GateWorkerMessage =
  | { readonly kind: 'chunk'; readonly files: number; readonly diagnostics: unknown[] }
  | { readonly kind: 'end' };

const data = workerData as GateWorkerData;
const held = new Map(data.held.map(([i, note]) => [data.index.constraints[i]!, note]));
const options: GateOptions = { ...data.options, held };
await loadDetectorKinds(kindsOf(data.index.constraints));
const gate = prepareGate(data.index, options);
for (let from = 0; from < data.files.length; from += data.chunkSize) {
  const part = data.files.slice(from, from + data.chunkSize);
  const diagnostics = await gate.judge(part);
  parentPort!.postMessage({ kind: 'chunk', files: part.length, diagnostics } satisfies GateWorkerMessage);
}
gate.close();
parentPort!.postMessage({ kind: 'end' } satisfies GateWorkerMessage);
