/**
 * The launcher compiles the hook's bundle with the code V8 made for it at build
 * (hooks/bundle-loader.ts, scripts/hook-code-cache.cjs), and only with code made from that very
 * source: any other cache is never handed to V8, and the bundle then compiles as it would have.
 * Run in child processes under the launcher's V8 flags, as the launcher does.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

const DIST = path.join(PACKAGE_ROOT, 'dist');

/** Loads the bundle in `dist` as the launcher does; its cache state and whether it exports the hook's entry. */
function loadIn(dist: string): { cache: string; main: string } {
  const script = `
    require('node:v8').setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    const { loadHookBundle } = require(${JSON.stringify(path.join(DIST, 'commit-start.cjs'))});
    const loaded = loadHookBundle(${JSON.stringify(dist)});
    process.stdout.write(JSON.stringify({ cache: loaded.cache, main: typeof loaded.exports.main }));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { cache: string; main: string };
}

/** A folder with the built bundle and `cache` as its cache file (none when null). */
function distWith(cache: Buffer | null): string {
  const dir = tempDir('findings-bundle-');
  copyFileSync(path.join(DIST, 'hook.cjs'), path.join(dir, 'hook.cjs'));
  if (cache !== null) writeFileSync(path.join(dir, 'hook.cache'), cache);
  return dir;
}

const builtCache = (): Buffer => readFileSync(path.join(DIST, 'hook.cache'));

describe('the hook bundle and its code cache', () => {
  it('the build made a cache that V8 takes under the launcher’s flags', () => {
    expect(loadIn(DIST)).toEqual({ cache: 'used', main: 'function' });
    expect(loadIn(distWith(builtCache()))).toEqual({ cache: 'used', main: 'function' });
  });

  it('a cache made from another source is never given to V8, even one of the same length', () => {
    const dir = distWith(builtCache());
    const source = readFileSync(path.join(dir, 'hook.cjs'), 'utf8');
    // Same length, other text: V8 alone would take the cache (it checks the length only).
    writeFileSync(path.join(dir, 'hook.cjs'), source.replace('internal error', 'internal errot'));
    expect(loadIn(dir)).toEqual({ cache: 'stale', main: 'function' });
  });

  it('no cache, or one V8 refuses: the bundle compiles as it would have', () => {
    expect(loadIn(distWith(null))).toEqual({ cache: 'absent', main: 'function' });
    const cache = builtCache();
    const garbled = Buffer.concat([cache.subarray(0, 32), Buffer.alloc(cache.length - 32, 7)]);
    expect(loadIn(distWith(garbled))).toEqual({ cache: 'rejected', main: 'function' });
  });
});
