/**
 * The gate over many files (`findings check --all`), in chunks: the same runGate per chunk of
 * files, so a long run can say how far it is (a progress line on a TTY once it has run for a
 * second: done/total, rate, ETA) and the work is split where it can be spread. The verdict is
 * exactly one runGate over all files: every file diagnostic belongs to one chunk; an
 * index-level evaluation error (a broken glob or detector, reported against the index file)
 * comes from every chunk that has a covered file, and is kept once. Output is sorted as runGate's.
 */
import { sortDiagnostics, type Diagnostic } from '../src/diagnostics.js';
import { progressLine } from '../src/lifecycle/progress.js';
import type { ConstraintIndex } from '../src/types.js';
import { runGate, type CheckedFile, type GateOptions } from './gate.js';

export interface ChunkOptions {
  /** Receives the progress line; absent: no progress (not a TTY). */
  readonly onProgress?: ((line: string) => void) | undefined;
  /** Progress starts only once the run has taken this long (default 1000 ms: short runs stay quiet). */
  readonly progressAfterMs?: number;
  /** Files per chunk (default: about 20 chunks, at least 500 files each). */
  readonly chunkSize?: number;
}

/** Files per chunk: ~20 progress steps, never chunks so small that per-chunk set-up dominates. Pure. */
export function chunkSizeFor(files: number): number {
  return Math.max(500, Math.ceil(files / 20));
}

export async function runGateInChunks(index: ConstraintIndex, files: readonly CheckedFile[], options: GateOptions, chunking: ChunkOptions = {}): Promise<Diagnostic[]> {
  const size = chunking.chunkSize ?? chunkSizeFor(files.length);
  if (files.length <= size) return runGate(index, files, options);
  const started = Date.now();
  const after = chunking.progressAfterMs ?? 1000;
  const out: Diagnostic[] = [];
  const indexLevel = new Set<string>();
  for (let from = 0; from < files.length; from += size) {
    for (const d of await runGate(index, files.slice(from, from + size), options)) {
      if (d.file === options.indexFile) {
        const key = JSON.stringify(d);
        if (indexLevel.has(key)) continue;
        indexLevel.add(key);
      }
      out.push(d);
    }
    const elapsed = Date.now() - started;
    if (chunking.onProgress && elapsed >= after) chunking.onProgress(progressLine(Math.min(files.length, from + size), files.length, elapsed, { verb: 'checking', unit: 'files' }));
  }
  return sortDiagnostics(out);
}
