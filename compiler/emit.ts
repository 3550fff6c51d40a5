/**
 * The output edge: writes compiled files. Every file goes through the kernel's atomic writer
 * (src/fs/atomic.ts: temp file in its own folder, every byte written and counted, rename), so a
 * compile killed at any moment leaves each file either old or new, never half-written
 * (docs/contracts/compiler.md#atomicity-and-locking); the next compile rewrites whatever is still stale
 * and sweeps temp files a killed run left behind.
 *
 * Markdown outputs skip the fsyncs (`durable: false`): a cold compile of the 10,000-finding
 * benchmark writes ~29,000 files, and these files are regenerated from their sources by the next
 * compile anyway. The index — the one executable surface, also edited by the lifecycle commands —
 * is fsynced like every other writer's file.
 */
import { lstatSync, mkdirSync, readdirSync, realpathSync, rmSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { TEMP_FILE, writeFileAtomically, writeFileAtomicallySync } from '../src/fs/atomic.js';
import { Layout } from '../src/layout.js';
import { resolveInsideRoot } from '../src/paths.js';

const TEMP = TEMP_FILE;
/** Temp names write-file-atomic (used before src/fs/atomic.ts had its own writer) left beside the index. */
const INDEX_TEMP = /^index\.json\.\d+$/;

/** Atomically replaces `abs` with `data`, without fsync (files outside the repository's sources: the parse memo). */
export function writeFast(abs: string, data: string): void {
  writeFileAtomicallySync(abs, data, { durable: false });
}

/** Runs `fn` over items with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next;
      next += 1;
      await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Writes one output: the index with fsync, Markdown without (see the module comment).
 * `madeFolders`: the folders this run has already made sure exist (one per run, so one mkdir per
 * folder rather than one per file: 29,000 in a cold compile).
 */
export async function writeOutput(root: string, file: string, data: string, madeFolders: Set<string> = new Set()): Promise<void> {
  const abs = path.join(root, file);
  const dir = path.dirname(abs);
  if (!madeFolders.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeFolders.add(dir);
  }
  await writeFileAtomically(abs, data, { durable: file === Layout.constraintIndex, display: file, mkdir: false });
}

export function removeOutput(root: string, file: string): void {
  rmSync(path.join(root, file), { force: true });
}

/**
 * Why the compiler may not write or remove anything in the repository folder `dir`, or null.
 * The folder — or, when it does not exist yet, its nearest existing ancestor (mkdir would follow
 * it) — must resolve inside the root through symlinks (src/paths.ts resolveInsideRoot): a
 * symlinked `.agents/planning-rules -> /elsewhere` would otherwise let compile delete and write
 * files outside the repository. A symlink that does not resolve is refused too.
 */
export function outputFolderProblem(root: string, dir: string): string | null {
  let rel = dir.replace(/\/+$/, '');
  while (rel !== '' && rel !== '.') {
    let exists = true;
    try {
      lstatSync(path.join(root, rel));
    } catch {
      exists = false;
    }
    if (exists) {
      try {
        realpathSync(path.join(root, rel));
      } catch {
        return `${rel} is a symlink that does not resolve`;
      }
      const r = resolveInsideRoot(root, rel);
      return 'problem' in r ? `${rel} ${r.problem}` : null;
    }
    rel = path.posix.dirname(rel);
  }
  return null;
}

/**
 * Removes temp files a killed compile (or a killed `constraint activate/retire`, which write the
 * index under the same lock) left in the folders it writes: writeFast's `.<name>.findings-*.tmp`
 * in the Markdown folders and the index's folder, and write-file-atomic's old `index.json.<digits>`. Call
 * under compile.lock, before writing.
 */
export function sweepTempFiles(root: string): void {
  const folders: [string, RegExp][] = [
    [Layout.findingsDir, TEMP],
    [Layout.planningRulesDir, TEMP],
    [Layout.preMortemChecksDir, TEMP],
    [Layout.constraintsDir, TEMP],
    [Layout.constraintsDir, INDEX_TEMP],
  ];
  for (const [dir, pattern] of folders) {
    if (outputFolderProblem(root, dir) !== null) continue;
    sweepFolder(path.join(root, dir), pattern);
  }
}

/** Removes files named like `pattern` (writeFast temps by default) directly in `abs`. */
export function sweepFolder(abs: string, pattern: RegExp = TEMP): void {
  let names: string[];
  try {
    names = readdirSync(abs);
  } catch {
    return;
  }
  for (const n of names) {
    if (!pattern.test(n)) continue;
    try {
      unlinkSync(path.join(abs, n));
    } catch {
      // gone already
    }
  }
}
