/**
 * The output edge: writes compiled files. Every file goes through the kernel's atomic writer
 * (src/fs/atomic.ts: temp file in its own folder, every byte written and counted, rename), so a
 * compile killed at any moment leaves each file either old or new, never half-written
 * (docs/contracts/compiler.md#atomicity-and-locking); the next compile rewrites whatever is still stale
 * and sweeps temp files a killed run left behind. A rule folder that does not exist yet (a cold
 * compile) is published whole instead: its files are written into a temp folder beside it, which
 * one rename then makes the folder (src/fs/new-folder.ts), so a killed compile leaves no folder
 * or the whole folder, and 10,000 files cost one rename instead of 10,000.
 *
 * Markdown outputs skip the fsyncs (`durable: false`): a cold compile of the 10,000-finding
 * benchmark writes ~29,000 files, and these files are regenerated from their sources by the next
 * compile anyway. The index — the one executable surface, also edited by the lifecycle commands —
 * is fsynced like every other writer's file.
 */
import { lstatSync, mkdirSync, readdirSync, realpathSync, rmSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { TEMP_FILE, writeFileAtomicallySync, type WriteOps } from '../src/fs/atomic.js';
import { sweepTempFolders, writeNewFolderSync } from '../src/fs/new-folder.js';
import { isConstraintFile, Layout } from '../src/layout.js';
import { resolveInsideRoot } from '../src/paths.js';
import type { Drift } from './diff.js';

const TEMP = TEMP_FILE;
/** Temp names write-file-atomic (used before src/fs/atomic.ts had its own writer) left beside the index. */
const INDEX_TEMP = /^index\.json\.\d+$/;

/** Atomically replaces `abs` with `data`, without fsync (files outside the repository's sources: the parse memo). */
export function writeFast(abs: string, data: string): void {
  writeFileAtomicallySync(abs, data, { durable: false });
}

/**
 * Writes one output: the index with fsync, Markdown without (see the module comment).
 * `madeFolders`: the folders this run has already made sure exist (one per run, so one mkdir per
 * folder rather than one per file: 29,000 in a cold compile).
 */
export function writeOutput(root: string, file: string, data: string, madeFolders: Set<string> = new Set(), ops?: WriteOps): void {
  const abs = path.join(root, file);
  const dir = path.dirname(abs);
  if (!madeFolders.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeFolders.add(dir);
  }
  writeFileAtomicallySync(abs, data, { durable: isConstraintFile(file), display: file, mkdir: false, ...(ops ? { ops } : {}) });
}

/** The changes to one output folder; `whole`: it does not exist and gets only new files, so it is published whole. */
export interface FolderChanges {
  readonly dir: string;
  readonly changes: readonly Drift[];
  readonly whole: boolean;
}

/**
 * A compile's changes grouped by folder, in the order given, and the constraint files' apart
 * (written last: extended.json, then index.json, so an entry moving into extended.json is never
 * in neither file).
 */
export function planChanges(root: string, drift: readonly Drift[]): { folders: FolderChanges[]; index: Drift[] } {
  const byFolder = new Map<string, Drift[]>();
  const index: Drift[] = [];
  for (const d of drift) {
    if (isConstraintFile(d.path)) {
      if (d.path === Layout.extendedIndex) index.unshift(d);
      else index.push(d);
      continue;
    }
    const dir = path.posix.dirname(d.path);
    const list = byFolder.get(dir);
    if (list === undefined) byFolder.set(dir, [d]);
    else list.push(d);
  }
  const folders = [...byFolder].map(([dir, changes]) => ({
    dir,
    changes,
    whole: changes.every((d) => d.kind === 'missing') && !exists(path.join(root, dir)),
  }));
  return { folders, index };
}

/**
 * Writes one folder's changes: published whole when it is new (see the module comment), else file
 * by file, and so is a new folder that someone else made in the meantime.
 */
export function writeFolder(
  root: string,
  folder: FolderChanges,
  outputs: ReadonlyMap<string, string>,
  madeFolders: Set<string>,
  ops?: WriteOps,
): void {
  if (folder.whole) {
    makeParent(root, folder.dir);
    const files = folder.changes.map((d) => [path.posix.basename(d.path), outputs.get(d.path)!] as const);
    if (writeNewFolderSync(path.join(root, folder.dir), files, { display: folder.dir, ...(ops ? { ops } : {}) })) return;
  }
  for (const d of folder.changes) {
    if (d.kind === 'orphaned') removeOutput(root, d.path);
    else writeOutput(root, d.path, outputs.get(d.path)!, madeFolders, ops);
  }
}

/** Makes the parent of a folder that is published whole (the publish's temp folder goes beside it). */
export function makeParent(root: string, dir: string): void {
  mkdirSync(path.join(root, path.posix.dirname(dir)), { recursive: true });
}

/** Whether anything (a symlink included) is at `abs`; any error but "not there" counts as something. */
function exists(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code !== 'ENOENT';
  }
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
 * in the Markdown folders and the index's folder, write-file-atomic's old `index.json.<digits>`,
 * and the temp folders of a rule folder being published (`.agents/.<name>.findings-*.tmpdir`).
 * Call under compile.lock, before writing.
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
  if (outputFolderProblem(root, Layout.agentsDir) === null) sweepTempFolders(path.join(root, Layout.agentsDir));
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
