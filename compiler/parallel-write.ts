/**
 * Writes many compiled files with both cores. A cold compile of the 10,000-finding benchmark
 * writes ~29,000 files, and nearly all of that time is the kernel creating them (allocating an
 * inode each), which one thread does one file after another. Files in different folders do not
 * wait on each other there, so the folders are split into two lanes of about equal size: this
 * thread writes one, a worker thread writes the other (docs/compiler.md "Speed").
 *
 * Nothing about a file changes: each still goes through the one atomic writer (src/fs/atomic.ts:
 * temp file in the target's folder, every byte written and counted, rename), so it appears whole
 * or not at all; the caller has already checked every folder resolves inside the repository
 * (compiler/emit.ts outputFolderProblem) and made it. A folder is written by one thread only, so
 * two temp names can never meet. Only the order in which files appear changes, which nobody can
 * rely on anyway (a killed compile leaves any subset, and the next compile finishes the job).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { isDiskErrorCode, WriteFailedError, writeFileAtomicallySync } from '../src/fs/atomic.js';
import { packageFile } from '../src/package-root.js';
import type { WriteJob, WriteReply } from './write-worker.js';

/** Below this many files a worker's start (~30 ms) is not worth it. */
export const PARALLEL_WRITE_MIN = 2000;

/** From how many files to use the worker here: never on a single processor. */
export const defaultParallelWriteMin = (): number => (availableParallelism() >= 2 ? PARALLEL_WRITE_MIN : Number.POSITIVE_INFINITY);

/** The worker script: beside this module when running from dist/, else the built copy (tests run the TS sources). */
function workerUrl(): URL {
  const beside = new URL('./write-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  return new URL(`file://${packageFile('dist', 'compiler', 'write-worker.js')}`);
}

/**
 * Splits jobs by folder into two lanes of about equal file count (largest folders first, each to
 * the lighter lane); a folder is never split. Pure and deterministic.
 */
export function lanesByFolder(jobs: readonly WriteJob[]): [WriteJob[], WriteJob[]] {
  const folders = new Map<string, WriteJob[]>();
  for (const j of jobs) {
    const dir = path.dirname(j.abs);
    let list = folders.get(dir);
    if (list === undefined) folders.set(dir, (list = []));
    list.push(j);
  }
  const bySize = [...folders.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const lanes: [WriteJob[], WriteJob[]] = [[], []];
  for (const [, list] of bySize) {
    const lighter = lanes[0].length <= lanes[1].length ? lanes[0] : lanes[1];
    for (const j of list) lighter.push(j);
  }
  return lanes;
}

function writeHere(jobs: readonly WriteJob[]): void {
  for (const j of jobs) writeFileAtomicallySync(j.abs, j.data, { durable: false, display: j.display, mkdir: false });
}

function inWorker(jobs: readonly WriteJob[]): Promise<WriteReply> {
  return new Promise((resolve) => {
    const worker = new Worker(workerUrl(), { workerData: jobs });
    let reply: WriteReply | null = null;
    worker.once('message', (m: WriteReply) => {
      reply = m;
    });
    worker.once('error', (error) => {
      reply ??= { ok: false, file: jobs[0]?.display ?? '', message: error instanceof Error ? error.message : String(error) };
    });
    worker.once('exit', () => resolve(reply ?? { ok: false, file: jobs[0]?.display ?? '', message: 'the writing thread stopped' }));
  });
}

/**
 * Writes every job without fsync (Markdown outputs; see compiler/emit.ts). With at least
 * `minFiles` jobs in two or more folders, a worker thread writes one lane while
 * this thread writes the other; a failure in either is thrown once both have stopped. Returns how
 * many files the worker wrote (0 when all were written here).
 */
export async function writeFilesInLanes(jobs: readonly WriteJob[], minFiles: number = defaultParallelWriteMin()): Promise<number> {
  const [here, there] = jobs.length >= minFiles ? lanesByFolder(jobs) : [jobs, []];
  if (there.length === 0) {
    writeHere(here);
    return 0;
  }
  const other = inWorker(there);
  let failure: unknown = null;
  try {
    writeHere(here);
  } catch (error) {
    failure = error;
  }
  const reply = await other;
  if (failure !== null) throw failure;
  if (!reply.ok) {
    if (reply.code !== undefined && isDiskErrorCode(reply.code)) throw new WriteFailedError(reply.file, reply.code);
    throw Object.assign(new Error(`cannot write ${reply.file}: ${reply.message}`), { code: reply.code });
  }
  return there.length;
}
