/**
 * Worker side of compiler/parallel-write.ts: writes the files it is sent, one after another, each
 * through the same atomic writer as the main thread (src/fs/atomic.ts, `durable: false`), and
 * answers once: `{ ok: true }`, or the first failure (the files after it are not written).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorCode, WriteFailedError, writeFileAtomicallySync } from '../src/fs/atomic.js';

export interface WriteJob {
  readonly abs: string;
  readonly data: string;
  readonly display: string;
}

export type WriteReply =
  | { readonly ok: true }
  | { readonly ok: false; readonly file: string; readonly code?: string | undefined; readonly message: string };

function run(jobs: readonly WriteJob[]): WriteReply {
  for (const job of jobs) {
    try {
      writeFileAtomicallySync(job.abs, job.data, { durable: false, display: job.display, mkdir: false });
    } catch (error) {
      const file = error instanceof WriteFailedError ? error.file : job.display;
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, file, code: errorCode(error), message };
    }
  }
  return { ok: true };
}

if (parentPort) parentPort.postMessage(run(workerData as WriteJob[]));
