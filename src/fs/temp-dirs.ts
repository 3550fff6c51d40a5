/**
 * `findings pull`'s private temporary repositories (`<tmp>/findings-pull-*`). Each is removed when
 * the pull ends, also on SIGINT, SIGTERM and SIGHUP (src/fs/exit-cleanup.ts). A SIGKILL cannot be
 * caught, so every pull first sweeps leftovers older than an hour — old enough that no live pull
 * (which fetches at depth 1 and reads a few blobs) still uses them.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onExitCleanup } from './exit-cleanup.js';

export const PULL_TEMP_PREFIX = 'findings-pull-';
export const PULL_TEMP_MAX_AGE_MS = 60 * 60 * 1000;

/** A fresh private temp folder, removed by `dispose()` or when the process ends or is interrupted. */
export function makePullTempDir(): { dir: string; dispose: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), PULL_TEMP_PREFIX));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  const unregister = onExitCleanup(remove);
  return {
    dir,
    dispose: () => {
      unregister();
      remove();
    },
  };
}

/** Removes `findings-pull-*` folders in `tmp` last modified more than `maxAgeMs` ago. Returns the names removed. */
export function sweepStalePullDirs(tmp: string = tmpdir(), maxAgeMs: number = PULL_TEMP_MAX_AGE_MS, now: number = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(PULL_TEMP_PREFIX)) continue;
    const abs = path.join(tmp, name);
    try {
      const st = statSync(abs);
      if (!st.isDirectory() || now - st.mtimeMs <= maxAgeMs) continue;
      rmSync(abs, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // gone, or not ours to remove
    }
  }
  return removed.sort();
}
