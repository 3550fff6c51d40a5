/**
 * The launcher compiles the hook's bundle with the code V8 made for it at build
 * (hooks/bundle-loader.ts, scripts/hook-code-cache.cjs), and only with code made from that very
 * source, on this Node, and intact: any other cache is never handed to V8 (it checks only the
 * source's length and can crash on damaged data), and the bundle then compiles as it would have.
 * Run in child processes under the launcher's V8 flags, as the launcher does.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

const DIST = path.join(PACKAGE_ROOT, 'dist');

/** The environment without what would change V8's flags or point git elsewhere. */
function plainEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_OPTIONS' && !k.startsWith('GIT_')));
  return { ...env, ...extra };
}

/** Loads the bundle in `dist` as the launcher does; its cache state and whether it exports the hook's entry. */
function loadIn(dist: string): { cache: string; main: string } {
  const script = `
    require('node:v8').setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    const { loadHookBundle } = require(${JSON.stringify(path.join(DIST, 'commit-start.cjs'))});
    const loaded = loadHookBundle(${JSON.stringify(dist)});
    process.stdout.write(JSON.stringify({ cache: loaded.cache, main: typeof loaded.exports.main }));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: plainEnv() });
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
/** The cache's first two lines (what it was made for) and V8's data after them. */
function split(cache: Buffer): { head: Buffer; header: Record<string, string>; data: Buffer } {
  const second = cache.indexOf(10, cache.indexOf(10) + 1) + 1;
  const first = cache.indexOf(10) + 1;
  return { head: cache.subarray(0, first), header: JSON.parse(cache.subarray(first, second - 1).toString()), data: cache.subarray(second) };
}

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

  it('a cache made by another Node release is never given to V8', () => {
    const { head, header, data } = split(builtCache());
    const other = Buffer.concat([head, Buffer.from(`${JSON.stringify({ ...header, node: 'v20.0.0-other' })}\n`), data]);
    expect(loadIn(distWith(other))).toEqual({ cache: 'stale', main: 'function' });
  });

  it('damaged data behind an intact header is never given to V8 (it could crash)', () => {
    const cache = Buffer.from(builtCache());
    const { data } = split(cache);
    const at = cache.length - data.length + 100;
    cache.fill(0x5a, at, at + 64);
    expect(loadIn(distWith(cache))).toEqual({ cache: 'damaged', main: 'function' });
    expect(loadIn(distWith(Buffer.from('not a cache at all')))).toEqual({ cache: 'damaged', main: 'function' });
  });

  it('no cache, or one V8 refuses (made under other flags): the bundle compiles as it would have', () => {
    expect(loadIn(distWith(null))).toEqual({ cache: 'absent', main: 'function' });
    const dir = distWith(null);
    const made = spawnSync(
      process.execPath,
      ['--max-old-space-size=1234', path.join(PACKAGE_ROOT, 'scripts/hook-code-cache.cjs'), path.join(dir, 'hook.cache')],
      {
        encoding: 'utf8',
        env: plainEnv(),
      },
    );
    expect(made.status).toBe(0);
    expect(loadIn(dir)).toEqual({ cache: 'rejected', main: 'function' });
  });

  it('making the cache inside a git hook’s environment leaves the repository that names alone', () => {
    const victim = makeRepo({ 'keep.txt': 'mine\n' });
    victim.commitAll('mine');
    const head = victim.git('rev-parse', 'HEAD');
    const index = readFileSync(path.join(victim.root, '.git/index'));
    const dir = distWith(null);
    const env = plainEnv({
      GIT_DIR: path.join(victim.root, '.git'),
      GIT_WORK_TREE: victim.root,
      GIT_INDEX_FILE: path.join(victim.root, '.git/index'),
      HUSKY: '0',
    });
    const made = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'scripts/hook-code-cache.cjs'), path.join(dir, 'hook.cache')], {
      cwd: victim.root,
      encoding: 'utf8',
      env,
    });
    expect(made.status).toBe(0);
    expect(made.stderr).not.toContain('no cache made');
    expect(victim.git('rev-parse', 'HEAD')).toBe(head);
    expect(readFileSync(path.join(victim.root, '.git/index')).equals(index)).toBe(true);
    expect(victim.read('keep.txt')).toBe('mine\n');
    expect(loadIn(dir)).toEqual({ cache: 'used', main: 'function' });
  });
});
