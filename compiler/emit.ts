/**
 * The output edge: writes compiled files. Every file is written to a temp file in its own folder
 * and renamed over the target, so a compile killed at any moment leaves each file either old or
 * new, never half-written (finding-compiler.md "Atomicity and locking"); the next compile
 * rewrites whatever is still stale and sweeps temp files a killed run left behind.
 *
 * Markdown outputs use a plain write + rename (no fsync): write-file-atomic costs ~0.5 ms per
 * file, and a cold compile of the 10,000-finding benchmark writes ~29,000 files; these files are
 * regenerated from their sources anyway. The index — the one executable surface, also edited by
 * the lifecycle commands — goes through the kernel's fsyncing writer.
 */
import { lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../src/fs/atomic.js';
import { Layout } from '../src/layout.js';
import { resolveInsideRoot } from '../src/paths.js';

const TEMP = /^\..+\.findings-\d+-\d+\.tmp$/;
/** write-file-atomic's temp names for the index (`index.json.<uint32>`, src/fs/atomic.ts). */
const INDEX_TEMP = /^index\.json\.\d+$/;
let counter = 0;
const madeDirs = new Set<string>();

/** A fresh temp path beside `abs` (its folder created once per process). */
function tempBeside(abs: string): string {
  const dir = path.dirname(abs);
  if (!madeDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  counter += 1;
  return path.join(dir, `.${path.basename(abs)}.findings-${process.pid}-${counter}.tmp`);
}

/** Atomically replaces `abs` with `data` (temp file + rename in the same folder). */
export function writeFast(abs: string, data: string): void {
  const tmp = tempBeside(abs);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, abs);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Async writeFast: the thread pool overlaps file creation latency when many files are written. */
export async function writeFastAsync(abs: string, data: string): Promise<void> {
  const tmp = tempBeside(abs);
  try {
    await writeFile(tmp, data);
    await rename(tmp, abs);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
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

/** Writes one output: the index with fsync (kernel writer), Markdown with writeFastAsync. */
export async function writeOutput(root: string, file: string, data: string): Promise<void> {
  const abs = path.join(root, file);
  if (file === Layout.constraintIndex) await writeFileAtomically(abs, data);
  else await writeFastAsync(abs, data);
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
 * in the Markdown folders and write-file-atomic's `index.json.<digits>` beside the index. Call
 * under compile.lock, before writing.
 */
export function sweepTempFiles(root: string): void {
  const folders: [string, RegExp][] = [
    [Layout.findingsDir, TEMP],
    [Layout.planningRulesDir, TEMP],
    [Layout.preMortemChecksDir, TEMP],
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
