/**
 * Which files the gate judges, and where their content (and the constraint index) comes from
 * (docs/hooks.md#findings-check): the index for `--staged`, the to-ref for a range, the index's
 * files plus the working-tree constraint index for `--all`, a commit's tree for a new branch
 * pushed without a base. All blob content is read with one `git cat-file --batch` (docs/stack-pitfalls.md#5).
 */
import { isUtf8 } from 'node:buffer';
import { fsPromises } from '../src/lazy-builtins.js';
import path from 'node:path';
import {
  EMPTY_TREE,
  NULL_SHA,
  indexEntries,
  listedFiles,
  rangeChanges,
  readObjects,
  resolveCommit,
  rootChanges,
  stagedChangesFrom,
  treeEntries,
  type RawChange,
} from '../src/git/core.js';
import { Layout } from '../src/layout.js';
import { pathsWorthReading } from './blob-selection.js';
import { readLocalBlobs } from '../src/git/local-blobs.js';
import { HEAD_EXTENDED, HEAD_INDEX, STAGED_META, type EarlyReads } from './early-reads.js';
import type { ConstraintTexts } from '../src/constraints/constraint-set.js';
import type { FileContent } from '../src/repo-files.js';
import { isNotFound } from '../src/fs/atomic.js';
import { UsageError } from '../src/exit-codes.js';

export type CheckMode =
  | { readonly kind: 'staged' }
  | { readonly kind: 'all' }
  | { readonly kind: 'range'; readonly from: string; readonly to: string }
  | { readonly kind: 'tree'; readonly commit: string }
  /** Named files (lint-staged, editors): staged content judged like `--staged`, or the working tree like `--all`. */
  | { readonly kind: 'paths'; readonly paths: readonly string[]; readonly worktree: boolean };

export interface Collected {
  /** Text files to judge, in path order. */
  readonly files: FileContent[];
  /** Every non-deleted changed path (before binary/submodule filtering) — hooks route `.agents/` paths from it. */
  readonly changedPaths: string[];
  /** Paths the change deletes (a deleted finding source still calls for a compile check). */
  readonly deletedPaths: string[];
  /** Paths skipped and why (binary, submodule), for `--verbose`-style reporting and tests. */
  readonly skipped: { path: string; reason: string }[];
  /** The constraint index's text from the same source as the content, or null when absent. */
  readonly constraintIndexText: string | null;
  /** The extended index's text (`.agents/constraints/extended.json`) from the same source, or null when absent. */
  readonly extendedIndexText: string | null;
  /**
   * Constraint index text before the change (HEAD for staged content, the range's base), or
   * null when absent or when the mode has no "before" (a base-less tree, `--all`): the gate
   * judges by the stricter of the two (hooks/judgment.ts).
   */
  readonly constraintIndexBefore: string | null;
  /** The extended index before the change, as constraintIndexBefore. */
  readonly extendedIndexBefore: string | null;
  readonly configText: string | null;
  /** Where the content and the constraint index were read from, for messages (`index`, `worktree`, `<sha>`). */
  readonly contentSource: string;
  /** For change modes: how to get added lines (base and target); null for whole-file modes. */
  readonly diffBase: { readonly from: string; readonly to: string | null } | null;
}

const SUBMODULE = '160000';
/** The content given to a file left unread because no constraint can report anything in it. */
const UNREAD = Buffer.alloc(0);

/**
 * Binary means: a NUL byte in the first 8 KB (git's own heuristic) AND the content is not valid
 * UTF-8. NUL is a valid UTF-8 character, and a source file with one (`console.log(x) // \0` is
 * valid JavaScript) is still judged as text, so a stray NUL cannot hide a violation; images,
 * archives and compiled objects are never valid UTF-8 (docs/hooks.md, "Binary files"). Pure.
 */
export function isBinary(data: Buffer): boolean {
  return data.subarray(0, 8000).includes(0) && !isUtf8(data);
}

async function readWorktree(root: string, rel: string): Promise<string | null> {
  try {
    return await fsPromises().readFile(path.join(root, rel), 'utf8');
  } catch (error) {
    if (isNotFound(error) || (error as { code?: string }).code === 'ENOTDIR') return null;
    throw error;
  }
}

/** The constraint files a collection read, after and before the change (null: the mode has no "before"). */
export function constraintTexts(c: Collected): { readonly after: ConstraintTexts; readonly before: ConstraintTexts | null } {
  const after = { index: c.constraintIndexText, extended: c.extendedIndexText };
  const before = { index: c.constraintIndexBefore, extended: c.extendedIndexBefore };
  return { after, before: before.index === null && before.extended === null ? null : before };
}

/** How a commit-ish names the constraint index, the config and the extended index. */
const metaAt = (rev: string): readonly [string, string, string] => [
  `${rev}:${Layout.constraintIndex}`,
  `${rev}:${Layout.config}`,
  `${rev}:${Layout.extendedIndex}`,
];

/** The working tree's constraint files. */
export async function readWorktreeConstraints(root: string): Promise<ConstraintTexts> {
  const [index, extended] = await Promise.all([readWorktree(root, Layout.constraintIndex), readWorktree(root, Layout.extendedIndex)]);
  return { index, extended };
}

interface Listed {
  readonly path: string;
  readonly oldPath?: string;
  readonly mode: string;
  readonly sha: string;
}

function fromChanges(changes: readonly RawChange[]): Listed[] {
  // Deletions leave nothing to check; renames are judged under the new path; unmerged entries have no blob.
  return changes
    .filter((c) => c.status !== 'D' && c.status !== 'U' && c.dstSha !== NULL_SHA)
    .map((c) => ({ path: c.path, mode: c.dstMode, sha: c.dstSha, ...(c.oldPath !== undefined ? { oldPath: c.oldPath } : {}) }));
}

/** Deleted paths, and the old side of renames (it disappears too). */
function deletionsOf(changes: readonly RawChange[]): string[] {
  return changes.flatMap((c) => (c.status === 'D' ? [c.path] : c.status === 'R' && c.oldPath !== undefined ? [c.oldPath] : []));
}

/** What the caller already knows about the repository, so collect need not ask git again. */
export interface Known {
  /** HEAD's commit (null: none), when already resolved (hooks/snapshot.ts). */
  readonly head?: string | null;
  /** The staged diff and settings, started early (hooks/early-reads.ts); used when they ran at the same root. */
  readonly early?: EarlyReads;
  /** git's objects folder: staged blobs are read from disk when they are there, verified (src/git/local-blobs.ts). */
  readonly objects?: string;
}

/** Lists and reads the files of a mode with one cat-file process (index and config in the same batch). */
export async function collect(root: string, mode: CheckMode, known: Known = {}): Promise<Collected> {
  let listed: Listed[];
  /** How the mode names the constraint index, the config and the extended index. */
  let metaNames: readonly [string, string, string] | null = null;
  /** How it names the constraint index and the extended index before the change. */
  let beforeNames: readonly [string, string] | null = null;
  let contentSource: string;
  let diffBase: Collected['diffBase'] = null;
  let deletedPaths: string[] = [];
  let worthReading: ReadonlySet<string> | null = null;
  /** The settings and index texts when already read (early reads), by the names below. */
  let metaRead: Map<string, Buffer | null> | null = null;
  switch (mode.kind) {
    case 'paths':
      return mode.worktree ? collectWorktreePaths(root, mode.paths) : collectStagedPaths(root, mode.paths);
    case 'staged': {
      const head = known.head !== undefined ? known.head : await resolveCommit(root, 'HEAD');
      const base = head ?? EMPTY_TREE;
      // Paths in the diff are the top level's; early reads count only if they ran where these would.
      const early = known.early !== undefined && known.early.cwd === root ? known.early : null;
      const diff = early === null ? null : await early.diff;
      const raw = diff === null ? await stagedChangesFrom(root, base) : await rootChanges(root, diff);
      listed = fromChanges(raw);
      deletedPaths = deletionsOf(raw);
      // `:<path>` names the index's stage-0 blob; cat-file honours GIT_INDEX_FILE like every git child.
      metaNames = [...STAGED_META];
      contentSource = 'index';
      diffBase = { from: base, to: null };
      if (head !== null) beforeNames = [`${head}:${Layout.constraintIndex}`, `${head}:${Layout.extendedIndex}`];
      const meta = early === null ? null : await early.meta;
      if (meta !== null) {
        metaRead = new Map(STAGED_META.map((n) => [n, meta.get(n)?.data ?? null]));
        // HEAD named by the sha the probe resolved or by name, at the same moment: the same blob.
        if (beforeNames !== null) {
          metaRead.set(beforeNames[0], meta.get(HEAD_INDEX)?.data ?? null);
          metaRead.set(beforeNames[1], meta.get(HEAD_EXTENDED)?.data ?? null);
        }
      }
      break;
    }
    case 'range': {
      const raw = await rangeChanges(root, mode.from, mode.to);
      listed = fromChanges(raw);
      deletedPaths = deletionsOf(raw);
      metaNames = metaAt(mode.to);
      contentSource = mode.to.slice(0, 12);
      diffBase = { from: mode.from, to: mode.to };
      beforeNames = [`${mode.from}:${Layout.constraintIndex}`, `${mode.from}:${Layout.extendedIndex}`];
      break;
    }
    case 'tree': {
      listed = await treeEntries(root, mode.commit);
      metaNames = metaAt(mode.commit);
      contentSource = mode.commit.slice(0, 12);
      break;
    }
    case 'all': {
      listed = await indexEntries(root);
      contentSource = 'worktree';
      // Only the blobs that can matter to a constraint are read; the others are judged as empty text (hooks/blob-selection.ts).
      worthReading = await pathsWorthReading(root, listed, await readWorktreeConstraints(root));
      break;
    }
  }
  const skipped: { path: string; reason: string }[] = [];
  const blobs = listed.filter((e) => {
    if (e.mode === SUBMODULE) {
      skipped.push({ path: e.path, reason: 'submodule' });
      return false;
    }
    return true;
  });
  const read = worthReading === null ? blobs : blobs.filter((e) => worthReading.has(e.path));
  // Blobs found on disk (the working tree, loose objects; hash-verified) need no cat-file.
  const local = known.objects === undefined ? null : readLocalBlobs(root, known.objects, read);
  const names = (local === null ? read : read.filter((e) => !local.has(e.sha))).map((e) => e.sha);
  if (metaRead === null) names.push(...(metaNames ?? []), ...(beforeNames ?? []));
  const objects = await readObjects(root, names);
  for (const [name, data] of [...(local ?? []), ...(metaRead ?? [])]) objects.set(name, data);
  const files: FileContent[] = [];
  for (const e of blobs) {
    const data = worthReading === null || worthReading.has(e.path) ? objects.get(e.sha) : UNREAD;
    if (!data) continue;
    // A symlink's blob is its link text: checked as text, never followed.
    if (isBinary(data)) {
      skipped.push({ path: e.path, reason: 'binary' });
      continue;
    }
    files.push({ path: e.path, data, ...(e.oldPath !== undefined ? { oldPath: e.oldPath } : {}) });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const textOf = (name: string | undefined): string | null => (name === undefined ? null : (objects.get(name)?.toString('utf8') ?? null));
  let constraintIndexText: string | null;
  let extendedIndexText: string | null;
  let configText: string | null;
  if (metaNames) {
    [constraintIndexText, configText, extendedIndexText] = metaNames.map(textOf) as [string | null, string | null, string | null];
  } else {
    [constraintIndexText, extendedIndexText, configText] = await Promise.all([
      readWorktree(root, Layout.constraintIndex),
      readWorktree(root, Layout.extendedIndex),
      readWorktree(root, Layout.config),
    ]);
  }
  return {
    files,
    changedPaths: listed.map((e) => e.path),
    deletedPaths,
    skipped,
    constraintIndexText,
    extendedIndexText,
    constraintIndexBefore: textOf(beforeNames?.[0]),
    extendedIndexBefore: textOf(beforeNames?.[1]),
    configText,
    contentSource,
    diffBase,
  };
}

/** A `:(literal)` pathspec, so a name with `*` or `?` means only itself (a folder: everything under it). */
const literal = (p: string): string => `:(literal)${p}`;

/** True when an entry is the named path or lies under it (a folder). Pure. */
const covers = (named: string, p: string): boolean => named === '.' || p === named || p.startsWith(`${named}/`);

/** Named files as staged: content and constraint index from git's index, added lines against HEAD. */
async function collectStagedPaths(root: string, paths: readonly string[]): Promise<Collected> {
  const entries = await indexEntries(root, paths.map(literal));
  const missing = paths.filter((n) => !entries.some((e) => covers(n, e.path)));
  if (missing.length > 0)
    throw new UsageError(`${missing.join(', ')}: not in the index (stage it with \`git add\`, or check the working tree with --worktree)`);
  const head = await resolveCommit(root, 'HEAD');
  // The constraint files before the change (HEAD's) join the batch: the stricter of the two judges (docs/hooks.md).
  const before = head === null ? [] : [`${head}:${Layout.constraintIndex}`, `${head}:${Layout.extendedIndex}`];
  const metaNames = [...STAGED_META, ...before];
  const skipped: { path: string; reason: string }[] = [];
  const blobs = entries.filter((e) => {
    if (e.mode !== SUBMODULE) return true;
    skipped.push({ path: e.path, reason: 'submodule' });
    return false;
  });
  const objects = await readObjects(root, [...blobs.map((e) => e.sha), ...metaNames]);
  const textOf = (name: string | undefined): string | null => (name === undefined ? null : (objects.get(name)?.toString('utf8') ?? null));
  const files: FileContent[] = [];
  for (const e of blobs) {
    const data = objects.get(e.sha);
    if (!data) continue;
    if (isBinary(data)) skipped.push({ path: e.path, reason: 'binary' });
    else files.push({ path: e.path, data });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    files,
    changedPaths: entries.map((e) => e.path),
    deletedPaths: [],
    skipped,
    constraintIndexText: textOf(metaNames[0]),
    configText: textOf(metaNames[1]),
    extendedIndexText: textOf(metaNames[2]),
    constraintIndexBefore: textOf(before[0]),
    extendedIndexBefore: textOf(before[1]),
    contentSource: 'index',
    diffBase: { from: head ?? EMPTY_TREE, to: null },
  };
}

/** Named files as they are on disk (a folder: its tracked and untracked, not ignored, files); the working-tree index. */
async function collectWorktreePaths(root: string, paths: readonly string[]): Promise<Collected> {
  const names: string[] = [];
  for (const n of paths) {
    let isDir: boolean;
    try {
      isDir = (await fsPromises().lstat(path.join(root, n))).isDirectory();
    } catch (error) {
      throw new UsageError(`${n}: cannot read (${(error as { code?: string }).code ?? String(error)})`);
    }
    if (!isDir) names.push(n);
    else names.push(...(await listedFiles(root, [literal(n)], true)));
  }
  const skipped: { path: string; reason: string }[] = [];
  const files: FileContent[] = [];
  for (const p of [...new Set(names)].sort()) {
    const abs = path.join(root, p);
    const stat = await fsPromises()
      .lstat(abs)
      .catch(() => null);
    if (stat === null) continue; // listed by git but deleted on disk: nothing to judge
    if (stat.isDirectory()) {
      skipped.push({ path: p, reason: 'submodule' });
      continue;
    }
    // A symlink is judged by its link text, as git stores it, never followed.
    const data = stat.isSymbolicLink() ? Buffer.from(await fsPromises().readlink(abs)) : await fsPromises().readFile(abs);
    if (isBinary(data)) skipped.push({ path: p, reason: 'binary' });
    else files.push({ path: p, data });
  }
  const [constraintIndexText, extendedIndexText, configText] = await Promise.all([
    readWorktree(root, Layout.constraintIndex),
    readWorktree(root, Layout.extendedIndex),
    readWorktree(root, Layout.config),
  ]);
  return {
    files,
    changedPaths: files.map((f) => f.path),
    deletedPaths: [],
    skipped,
    constraintIndexText,
    extendedIndexText,
    constraintIndexBefore: null,
    extendedIndexBefore: null,
    configText,
    contentSource: 'worktree',
    diffBase: null,
  };
}
