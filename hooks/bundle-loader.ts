/**
 * Loads the commit hook's bundle (dist/hook.cjs) with V8's code cache, when the build made one
 * (dist/hook.cache, scripts/hook-code-cache.cjs): every commit would otherwise parse and compile
 * the same 150 KB again (docs/hooks.md "Speed"). Node 20 offers no cache for CommonJS modules, so
 * the bundle is compiled here, as node's own loader would wrap it, with the cached code.
 *
 * Only ever a speed-up. V8 itself rejects a cache made by another V8 or under other flags; and it
 * checks only the source's length, so the cache starts with the SHA-256 of the source it was made
 * from, and a cache for any other source is never handed to V8. Without a usable cache the bundle
 * compiles as it would have.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { crypto } from '../src/lazy-builtins.js';

/** What became of the cache: given to V8 and taken, refused by V8, missing, or made from another source. */
export type CodeCacheState = 'used' | 'rejected' | 'absent' | 'stale';

export interface LoadedBundle {
  readonly exports: Record<string, unknown>;
  readonly cache: CodeCacheState;
  /** The compiled bundle: `createCachedData()` after a run gives the code of every function that ran. */
  readonly script: vm.Script;
}

/** The bundle's files: the source beside its cache. */
export const bundleFiles = (dist: string): { source: string; cache: string } => ({
  source: path.join(dist, 'hook.cjs'),
  cache: path.join(dist, 'hook.cache'),
});

const DIGEST_BYTES = 32;

const sourceDigest = (source: Buffer): Buffer => crypto().createHash('sha256').update(source).digest();

/** A cache file for `source`: its digest, then V8's data. */
export function cacheFileFor(source: Buffer, data: Buffer): Buffer {
  return Buffer.concat([sourceDigest(source), data]);
}

/** V8's data in `file` when it was made from `source`; null when the file is absent, undefined when it is for another source. */
function cachedDataFor(file: string, source: Buffer): Buffer | null | undefined {
  let cache: Buffer;
  try {
    cache = readFileSync(file);
  } catch {
    return null;
  }
  if (cache.length <= DIGEST_BYTES || !cache.subarray(0, DIGEST_BYTES).equals(sourceDigest(source))) return undefined;
  return cache.subarray(DIGEST_BYTES);
}

/**
 * Compiles and runs the bundle in `dist` as a CommonJS module. Its dynamic imports (the ES
 * modules of dist/ it loads on demand) go through `__hostImport`, a plain `import()` of this
 * module's: code compiled by `vm` cannot import without an experimental flag.
 */
export function loadHookBundle(dist: string): LoadedBundle {
  const files = bundleFiles(dist);
  const source = readFileSync(files.source);
  const cachedData = cachedDataFor(files.cache, source);
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, __hostImport) {${source.toString('utf8')}\n})`,
    {
      filename: files.source,
      ...(cachedData ? { cachedData } : {}),
    },
  );
  const module = { exports: {} as Record<string, unknown> };
  const hostImport = (url: string): Promise<unknown> => import(url);
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(pathToFileURL(files.source)), module, files.source, dist, hostImport);
  const cache: CodeCacheState =
    cachedData === null ? 'absent' : cachedData === undefined ? 'stale' : script.cachedDataRejected ? 'rejected' : 'used';
  return { exports: module.exports, cache, script };
}
