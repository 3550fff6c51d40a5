/**
 * The worker thread of compiler/write-changes.ts: publishes the new folders it is given and
 * replies once, with what it published or the first failure. It writes nothing else, and never
 * the constraint index.
 */
import { parentPort } from 'node:worker_threads';
import { publishFolders, type WriteWorkerData } from './write-changes.js';

// Started ahead of the compile (compiler/write-changes.ts writerThreadAhead): the work comes as one message.
parentPort?.once('message', (data: WriteWorkerData) => parentPort?.postMessage(publishFolders(data)));
