/**
 * Loads the commit hook's bundle (dist/hook.cjs) with V8's code cache, when the build made one
 * (dist/hook.cache, scripts/hook-code-cache.cjs): every commit would otherwise parse and compile
 * the same 150 KB again (docs/hooks.md "Speed"). Node 20 offers no cache for CommonJS modules, so
 * the bundle is compiled here, as node's own loader would wrap it, with the cached code.
 *
 * V8 rejects a cache made under other flags, but it checks only the length of the source, and it
 * does not checksum its data: bytes damaged on disk can crash it. So the cache file says what it
 * was made from — the SHA-256 of the source, the Node release, architecture and V8 — and carries
 * the SHA-256 of V8's data; only a cache that matches all of them is handed to V8. Without one
 * the bundle compiles as it would have.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { crypto } from '../src/lazy-builtins.js';

/**
 * What became of the cache: given to V8 and taken, refused by V8, missing, made from another
 * source or by another Node, or damaged (its data no longer what was written).
 */
export type CodeCacheState = 'used' | 'rejected' | 'absent' | 'stale' | 'damaged';

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

const MAGIC = 'findings-code-cache 1\n';

const sha256 = (data: Buffer): string => crypto().createHash('sha256').update(data).digest('hex');

/** What a cache is good for: this source, on this Node. */
const madeFor = (source: Buffer): Record<string, string> => ({
  source: sha256(source),
  node: process.version,
  arch: process.arch,
  v8: process.versions.v8,
});

/** A cache file for `source`, holding V8's `data`: a first line, what it was made for and the data's digest, then the data. */
export function cacheFileFor(source: Buffer, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify({ ...madeFor(source), data: sha256(data) })}\n`), data]);
}

/** V8's data in `file`, when it was made for `source` on this Node and is intact; else what is wrong with it. */
function cachedDataFor(file: string, source: Buffer): Buffer | 'absent' | 'stale' | 'damaged' {
  let cache: Buffer;
  try {
    cache = readFileSync(file);
  } catch {
    return 'absent';
  }
  const headerEnd = cache.indexOf(10, MAGIC.length);
  if (cache.toString('latin1', 0, MAGIC.length) !== MAGIC || headerEnd === -1) return 'damaged';
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(cache.toString('utf8', MAGIC.length, headerEnd)) as Record<string, unknown>;
  } catch {
    return 'damaged';
  }
  for (const [key, value] of Object.entries(madeFor(source))) if (header[key] !== value) return 'stale';
  const data = cache.subarray(headerEnd + 1);
  return header['data'] === sha256(data) ? data : 'damaged';
}

/**
 * Compiles and runs the bundle in `dist` as a CommonJS module. Its dynamic imports (the ES
 * modules of dist/ it loads on demand) go through `__hostImport`, a plain `import()` of this
 * module's: code compiled by `vm` cannot import without an experimental flag.
 */
export function loadHookBundle(dist: string): LoadedBundle {
  const files = bundleFiles(dist);
  const source = readFileSync(files.source);
  const cached = cachedDataFor(files.cache, source);
  const cachedData = typeof cached === 'string' ? undefined : cached;
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, __hostImport) {${source.toString('utf8')}\n})`,
    { filename: files.source, ...(cachedData ? { cachedData } : {}) },
  );
  const module = { exports: {} as Record<string, unknown> };
  const hostImport = (url: string): Promise<unknown> => import(url);
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(pathToFileURL(files.source)), module, files.source, dist, hostImport);
  const cache: CodeCacheState = typeof cached === 'string' ? cached : script.cachedDataRejected ? 'rejected' : 'used';
  return { exports: module.exports, cache, script };
}
