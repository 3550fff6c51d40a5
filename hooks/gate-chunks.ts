/**
 * The gate over many files (`findings check --all`), in chunks: the same runGate per chunk of
 * files, so a long run can say how far it is (done/total after each chunk, which the CLI draws as
 * a progress line on a TTY: src/output/progress.ts) and, above PARALLEL_MIN_FILES while a second core is idle, half
 * of the chunks run in a worker thread (hooks/gate-worker.ts) beside the main one. The verdict is
 * exactly one runGate over all files: every file diagnostic belongs to one chunk; an
 * index-level evaluation error (a broken glob or detector, reported against the index file)
 * comes from every chunk that has a covered file, and is kept once. Output is sorted as runGate's.
 */
import { os, workerThreads } from '../src/lazy-builtins.js';
import { sortDiagnostics, type Diagnostic } from '../src/diagnostics.js';
import { workerScript } from '../src/package-root.js';
import { Layout } from '../src/layout.js';
import type { ConstraintIndex } from '../src/types.js';
import { kindsOf, loadDetectorKinds } from '../src/match/detector.js';
import { prepareGate, runGate, type CheckedFile, type GateOptions } from './gate.js';
import type { GateWorkerData, GateWorkerMessage } from './gate-worker.js';

/** Below this many files a worker's start and the copy of the texts cost more than they save. */
export const PARALLEL_MIN_FILES = 4000;

export interface ChunkOptions {
  /** Receives files done of all after each chunk (the caller's reporter decides what to show, and when); absent: none. */
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
  /** Files per chunk (default: about 20 chunks, at least 500 files each). */
  readonly chunkSize?: number;
  /** Split across a worker thread from this many files (default: PARALLEL_MIN_FILES, and only while a core is idle; always needs ≥ 2 cores). */
  readonly parallelFrom?: number;
}

/** Held entries by position in the index, or null when one is not an entry of it (then no worker). */
function heldPositions(index: ConstraintIndex, held: GateOptions['held']): [number, string][] | null {
  const out: [number, string][] = [];
  for (const [entry, note] of held ?? new Map()) {
    const i = index.constraints.indexOf(entry);
    if (i === -1) return null;
    out.push([i, note]);
  }
  return out;
}

/** Runs the gate over `files` in a worker, calling `onChunk` as each chunk is judged. */
function inWorker(data: GateWorkerData, onChunk: (files: number, diagnostics: Diagnostic[]) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new (workerThreads().Worker)(
      workerScript(new URL('./gate-worker.js', import.meta.url), 'dist', 'hooks', 'gate-worker.js'),
      { workerData: data },
    );
    let ended = false;
    worker.on('message', (m: GateWorkerMessage) => {
      if (m.kind === 'chunk') onChunk(m.files, m.diagnostics as Diagnostic[]);
      else {
        ended = true;
        void worker.terminate().then(() => resolve());
      }
    });
    worker.on('error', reject);
    // A worker that stops without its end message judged only part of its files: fail, never pass.
    worker.on('exit', (code) => (ended ? undefined : reject(new Error(`the gate's worker thread stopped early (exit ${code})`))));
  });
}

/** Files per chunk: ~20 progress steps, never chunks so small that per-chunk set-up dominates. Pure. */
export function chunkSizeFor(files: number): number {
  return Math.max(500, Math.ceil(files / 20));
}

export async function runGateInChunks(
  index: ConstraintIndex,
  files: readonly CheckedFile[],
  options: GateOptions,
  chunking: ChunkOptions = {},
): Promise<Diagnostic[]> {
  const size = chunking.chunkSize ?? chunkSizeFor(files.length);
  if (files.length <= size) return runGate(index, files, options);
  const out: Diagnostic[] = [];
  const indexLevel = new Set<string>();
  let done = 0;
  const take = (count: number, diagnostics: readonly Diagnostic[]): void => {
    for (const d of diagnostics) {
      if (d.file === options.indexFile || d.file === Layout.extendedIndex) {
        const key = JSON.stringify(d);
        if (indexLevel.has(key)) continue;
        indexLevel.add(key);
      }
      out.push(d);
    }
    done += count;
    chunking.onProgress?.(done, files.length);
  };
  const held = heldPositions(index, options.held);
  // A worker only pays when a core is idle: on a saturated machine (measured at load 9-11 on 2
  // cores) copying the texts to it made check --all slower, not faster. Output is the same either way.
  const large =
    chunking.parallelFrom === undefined
      ? files.length >= PARALLEL_MIN_FILES && os().loadavg()[0]! + 1 <= os().availableParallelism()
      : files.length >= chunking.parallelFrom;
  const parallel = large && os().availableParallelism() >= 2 && held !== null;
  // The worker takes the second half; the main thread judges the first half meanwhile.
  const mainShare = parallel ? Math.ceil(files.length / 2) : files.length;
  const { held: _held, ...plain } = options;
  const worker = parallel
    ? inWorker({ index, files: files.slice(mainShare), options: plain, held: held!, chunkSize: size }, take)
    : Promise.resolve();
  // Observe a worker failure at once (it is rethrown below, after the main share).
  worker.catch(() => undefined);
  // Compiled once (globs, detectors, prefilter), applied chunk by chunk.
  await loadDetectorKinds(kindsOf(index.constraints));
  const gate = prepareGate(index, options);
  try {
    for (let from = 0; from < mainShare; from += size) {
      take(Math.min(size, mainShare - from), await gate.judge(files.slice(from, Math.min(from + size, mainShare))));
    }
  } finally {
    gate.close();
  }
  await worker;
  return sortDiagnostics(out);
}
