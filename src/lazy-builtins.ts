/**
 * Node builtins the commit hook needs only now and then, loaded on first use (docs/hooks.md
 * "Speed"): a static import makes every commit pay for compiling them and what they pull in,
 * whether it starts a worker or inflates an object or not.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `node:worker_threads` (a bounded evaluation's worker, the gate's second thread). */
export const workerThreads = (): typeof import('node:worker_threads') =>
  require('node:worker_threads') as typeof import('node:worker_threads');

/** `node:crypto` (hashing a blob read from disk: not before the launcher has started git). */
export const crypto = (): typeof import('node:crypto') => require('node:crypto') as typeof import('node:crypto');

/** `node:fs/promises` (which loads readline, watchers and more): the commit hook reads through it only now and then. */
export const fsPromises = (): typeof import('node:fs/promises') => require('node:fs/promises') as typeof import('node:fs/promises');

/** `node:os` (the gate's thread count, for thousands of files). */
export const os = (): typeof import('node:os') => require('node:os') as typeof import('node:os');

/** `node:zlib` (a loose object's inflating). */
export const zlib = (): typeof import('node:zlib') => require('node:zlib') as typeof import('node:zlib');
