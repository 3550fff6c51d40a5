/**
 * A compile's writes (every folder already vetted by the caller: compiler/emit.ts
 * outputFolderProblem): folder by folder, and the constraint index last, because the gate reads
 * it and everything it points at must then be in place. A large compile writes on two threads
 * (docs/compiler.md "Speed"; ADR 0015). Creating ~29,000 files is mostly the kernel's work, done
 * while the writing thread waits; on a cold compile of 10,000 findings it was a third of the
 * run. So the new rule folders, each published whole with one rename (src/fs/new-folder.ts), go
 * to a worker thread (compiler/write-worker.ts), while this thread saves the parse memo and
 * writes the other folders. Each folder is written by one thread with the same writers
 * (compiler/emit.ts writeFolder), the constraint index is written last and only after the
 * worker has replied or its thread has ended, and the lock is held until then.
 *
 * What can go wrong on the worker's side:
 * - a write that fails (a full disk) fails the compile with the same error, and the index is not
 *   written; when both threads fail, the error of the folder first in order is reported (which
 *   thread meets a full disk first is a matter of timing); a failure here stops the worker;
 * - a folder that someone else made meanwhile is written file by file here, as writeFolder does;
 * - a worker that cannot start or stops early (no reply) leaves at most a temp folder, which is
 *   swept once its thread has ended, and its folders are then written here.
 * A signal while this thread waits leaves the worker's temp folders to the next compile's sweep,
 * as a SIGKILL does: removing one while the worker may be renaming it could publish it half
 * empty. The process, the worker with it, ends with the signal; a rename is atomic, so each new
 * folder is absent or whole.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { WriteFailedError, type WriteOps } from '../src/fs/atomic.js';
import { sweepTempFolders, writeNewFolderSync } from '../src/fs/new-folder.js';
import { os, workerThreads } from '../src/lazy-builtins.js';
import { Layout } from '../src/layout.js';
import { workerScript } from '../src/package-root.js';
import type { Drift } from './diff.js';
import { type FolderChanges, makeParent, planChanges, writeFolder, writeOutput } from './emit.js';

/** Below this many files in the worker's share, starting it (~50 ms of a core) costs more than it saves. */
export const PARALLEL_MIN_FILES = 2000;

/** A folder the worker publishes whole: its path, its name for messages, and its files' names and byte counts in order. */
export interface FolderJob {
  readonly abs: string;
  readonly display: string;
  readonly names: readonly string[];
  readonly sizes: readonly number[];
}

/** What the worker is given: its folders, and every file's bytes one after another in `bytes` (transferred, not copied). */
export interface WriteWorkerData {
  readonly jobs: readonly FolderJob[];
  readonly bytes: Uint8Array;
}

/** An error as it crosses between threads: enough to raise the same error on this side. */
export interface ErrorData {
  readonly message: string;
  readonly code?: string;
  readonly path?: string;
  /** Set when it was a WriteFailedError (a disk that could not take the bytes), naming the file. */
  readonly writeFailedFile?: string;
}

/** The worker's reply: for each folder it got to, whether it was published (false: someone made it meanwhile). */
export type WriteWorkerReply =
  | { readonly kind: 'done'; readonly published: readonly boolean[] }
  | { readonly kind: 'failed'; readonly published: readonly boolean[]; readonly job: number; readonly error: ErrorData };

export interface ParallelOptions {
  /** Runs on this thread while the worker writes (the parse memo's save); it goes first when there is no worker. */
  readonly alongside?: () => void;
  /** Use a worker from this many files in its share (default PARALLEL_MIN_FILES, and only while a core is idle). */
  readonly parallelFrom?: number;
  /** The worker script (tests give a broken one). */
  readonly workerUrl?: URL;
  /** A worker started ahead (writerThreadAhead); released here when it gets no work. */
  readonly thread?: WriterThread | null;
  /** Replaced system calls (tests): everything is then written on this thread, where they apply. */
  readonly ops?: WriteOps;
}

/**
 * Which of `folders` the worker takes: folders published whole, the largest first, each to
 * whichever thread has less to write so far, counting a file written by itself (a temp file and
 * a rename) as 1.5 of a file in a published folder. None when the worker's share would be under
 * `minFiles`. Pure; returns positions in `folders`, in order.
 */
export function workerShare(folders: readonly { readonly whole: boolean; readonly files: number }[], minFiles: number): number[] {
  let here = 0;
  for (const f of folders) if (!f.whole) here += f.files * 1.5;
  let there = 0;
  const picked: number[] = [];
  const whole = folders.flatMap((f, i) => (f.whole ? [i] : [])).sort((a, b) => folders[b]!.files - folders[a]!.files || a - b);
  for (const i of whole) {
    const files = folders[i]!.files;
    if (there <= here) {
      picked.push(i);
      there += files;
    } else here += files;
  }
  return there >= minFiles && picked.length > 0 ? picked.sort((a, b) => a - b) : [];
}

/** The worker's side: publishes each folder in order; the first failure ends the run. Runs on whichever thread calls it. */
export function publishFolders(data: WriteWorkerData): WriteWorkerReply {
  const bytes = Buffer.from(data.bytes.buffer, data.bytes.byteOffset, data.bytes.byteLength);
  const published: boolean[] = [];
  let offset = 0;
  for (let job = 0; job < data.jobs.length; job += 1) {
    const { abs, display, names, sizes } = data.jobs[job]!;
    const files: [string, Buffer][] = [];
    for (let i = 0; i < names.length; i += 1) {
      files.push([names[i]!, bytes.subarray(offset, offset + sizes[i]!)]);
      offset += sizes[i]!;
    }
    try {
      published.push(writeNewFolderSync(abs, files, { display }));
    } catch (error) {
      return { kind: 'failed', published, job, error: errorData(error) };
    }
  }
  return { kind: 'done', published };
}

export function errorData(error: unknown): ErrorData {
  if (error instanceof WriteFailedError) return { message: error.message, code: error.code, writeFailedFile: error.file };
  const e = error as { message?: unknown; code?: unknown; path?: unknown } | null;
  return {
    message: typeof e?.message === 'string' ? e.message : String(error),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    ...(typeof e?.path === 'string' ? { path: e.path } : {}),
  };
}

/** The error `errorData` describes, raised on this side: the CLI reports it as it reports the original (src/cli/failure.ts). */
export function revivedError(data: ErrorData): Error {
  if (data.writeFailedFile !== undefined && data.code !== undefined) return new WriteFailedError(data.writeFailedFile, data.code);
  return Object.assign(new Error(data.message), {
    ...(data.code !== undefined ? { code: data.code } : {}),
    ...(data.path !== undefined ? { path: data.path } : {}),
  });
}

/** The jobs for `folders` and their files' bytes, encoded once into one buffer that is handed over whole. */
function encodeJobs(root: string, folders: readonly FolderChanges[], outputs: ReadonlyMap<string, string>): WriteWorkerData {
  const jobs: FolderJob[] = [];
  let total = 0;
  for (const f of folders) {
    const sizes = f.changes.map((d) => Buffer.byteLength(outputs.get(d.path)!, 'utf8'));
    for (const n of sizes) total += n;
    jobs.push({ abs: path.join(root, f.dir), display: f.dir, names: f.changes.map((d) => path.posix.basename(d.path)), sizes });
  }
  const bytes = new Uint8Array(total);
  const view = Buffer.from(bytes.buffer);
  let offset = 0;
  for (const f of folders) for (const d of f.changes) offset += view.write(outputs.get(d.path)!, offset, 'utf8');
  return { jobs, bytes };
}

type Outcome = WriteWorkerReply | { readonly kind: 'lost' };

/** The worker thread, started before it has work so that its start-up overlaps the compile. */
export interface WriterThread {
  /** Hands it `data` (the bytes are transferred, not copied); resolves with its reply, or `lost`. At most once. */
  run(data: WriteWorkerData): Promise<Outcome>;
  /** Stops it, whether it had work or not. */
  release(): void;
}

/** Starts the worker, waiting for its one message. Never throws: a worker that cannot start or stops without a reply is `lost`. */
export function startWriterThread(
  url: URL = workerScript(new URL('./write-worker.js', import.meta.url), 'dist', 'compiler', 'write-worker.js'),
): WriterThread {
  // The first of the reply and the exit settles it; a promise ignores any later resolve.
  let settle: (outcome: Outcome) => void = () => undefined;
  const outcome = new Promise<Outcome>((resolve) => {
    settle = resolve;
  });
  let worker: import('node:worker_threads').Worker;
  try {
    worker = new (workerThreads().Worker)(url);
  } catch {
    settle({ kind: 'lost' });
    return { run: () => outcome, release: () => undefined };
  }
  // Idle, it must not keep the process alive (a compile that throws before writing just ends).
  worker.unref();
  worker.once('message', (reply: WriteWorkerReply) => {
    settle(reply);
    void worker.terminate();
  });
  // Lost on its exit, not on its error: only then has the thread stopped writing. The error
  // itself needs a listener, or it would end the process.
  worker.once('error', () => undefined);
  worker.once('exit', () => settle({ kind: 'lost' }));
  return {
    run(data) {
      worker.ref();
      worker.postMessage(data, [data.bytes.buffer as ArrayBuffer]);
      return outcome;
    },
    release() {
      void worker.terminate();
    },
  };
}

/**
 * The worker, started ahead of a compile whose writes will likely give it work: at least
 * `parallelFrom` findings (one rule file each) and a rule folder that does not exist, so is
 * published whole. Null when not: writeChanges then starts one if it has work for it after all.
 */
export function writerThreadAhead(root: string, findings: number, options: ParallelOptions = {}): WriterThread | null {
  if (options.ops !== undefined || findings < (options.parallelFrom ?? PARALLEL_MIN_FILES)) return null;
  if (options.parallelFrom === undefined && !coreFree()) return null;
  if (existsSync(path.join(root, Layout.planningRulesDir)) && existsSync(path.join(root, Layout.preMortemChecksDir))) return null;
  return startWriterThread(options.workerUrl);
}

/**
 * Whether a second core is free on average over the last minute. With both cores busy (two busy
 * loops beside the 10,000-finding cold compile) the worker gained nothing (1.05× the wall time of
 * one thread); with one free it took 0.91×. Unlike check --all (hooks/gate-chunks.ts), nothing
 * is copied to the worker but the bytes it writes, so it pays as soon as a core is partly free.
 */
function coreFree(): boolean {
  const cores = os().availableParallelism();
  return cores >= 2 && os().loadavg()[0]! < cores;
}

/** Saves the memo when the writes failed before it was saved: only speed is at stake, so its own failure is not reported. */
function saveQuietly(save: (() => void) | undefined): void {
  try {
    save?.();
  } catch {
    // the next compile parses again
  }
}

/**
 * Writes a compile's changes, the new folders of a large compile published by a worker thread
 * meanwhile (see the module comment). Returns how many folders the worker published.
 */
export async function writeChanges(
  root: string,
  drift: readonly Drift[],
  outputs: ReadonlyMap<string, string>,
  options: ParallelOptions = {},
): Promise<{ workerFolders: number }> {
  const { folders, index } = planChanges(root, drift);
  const madeFolders = new Set<string>();
  // A worker started ahead was started on the same judgement; the load the compile itself adds since does not undo it.
  const parallel = options.ops === undefined && (options.thread != null || options.parallelFrom !== undefined || coreFree());
  const share = !parallel
    ? []
    : workerShare(
        folders.map((f) => ({ whole: f.whole, files: f.changes.length })),
        options.parallelFrom ?? PARALLEL_MIN_FILES,
      );
  if (share.length === 0) {
    options.thread?.release();
    options.alongside?.();
    for (const folder of folders) writeFolder(root, folder, outputs, madeFolders, options.ops);
    for (const d of index) writeOutput(root, d.path, outputs.get(d.path)!, madeFolders, options.ops);
    return { workerFolders: 0 };
  }
  const theirs = share.map((i) => folders[i]!);
  const parents = [...new Set(theirs.map((f) => path.dirname(path.join(root, f.dir))))];
  const thread = options.thread ?? startWriterThread(options.workerUrl);
  let memoSaved = false;
  let failure: { at: number; error: unknown } | null = null;
  let outcome: Outcome;
  try {
    for (const f of theirs) makeParent(root, f.dir);
    const worker = thread.run(encodeJobs(root, theirs, outputs));
    let at = -1;
    try {
      memoSaved = true;
      options.alongside?.();
      for (at = 0; at < folders.length; at += 1) {
        if (!share.includes(at)) writeFolder(root, folders[at]!, outputs, madeFolders);
      }
    } catch (error) {
      failure = { at, error };
      // Nothing more is written after a failure: the worker is stopped, and a folder it was
      // publishing stays absent (its temp folder is swept below) or whole (a rename is atomic).
      thread.release();
    }
    // Resolves only once the worker has replied or its thread has ended: nothing writes after this.
    outcome = await worker;
  } finally {
    thread.release();
    if (!memoSaved) saveQuietly(options.alongside);
  }
  let publishedThere = 0;
  if (outcome.kind === 'lost') {
    // Its thread has ended; what it left is a temp folder at most. Its folders are then written here.
    for (const p of parents) sweepTempFolders(p);
  } else {
    publishedThere = outcome.published.filter(Boolean).length;
    if (outcome.kind === 'failed') {
      const theirAt = share[outcome.job]!;
      if (failure === null || theirAt < failure.at) failure = { at: theirAt, error: revivedError(outcome.error) };
    }
  }
  if (failure !== null) throw failure.error;
  for (let k = 0; k < share.length; k += 1) {
    const folder = folders[share[k]!]!;
    if (outcome.kind !== 'lost' && outcome.published[k] === true) continue;
    // Lost, or made by someone else meanwhile: written here, whole if it is still new (writeFolder checks again).
    writeFolder(root, outcome.kind === 'lost' ? folder : { ...folder, whole: false }, outputs, madeFolders);
  }
  for (const d of index) writeOutput(root, d.path, outputs.get(d.path)!, madeFolders);
  return { workerFolders: publishedThere };
}
