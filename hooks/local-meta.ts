/**
 * The early reads' answers from the repository's files instead of a `git cat-file` process
 * (docs/hooks.md "Speed"): HEAD's commit (src/git/local-head.ts) and the constraint files
 * (index.json, extended.json) and config as staged (the index file names their blobs:
 * src/git/git-index.ts), read while git computes the staged diff; then the constraint files at
 * HEAD, once the diff is in (it names each blob when the commit changes it; otherwise it is the
 * staged one). A blob counts only when its
 * bytes hash to its name, as every staged blob read from disk (src/git/local-blobs.ts). Null
 * whenever one answer is not certain: the caller then asks git for all of them, as before.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { changesAtRoot, parseRawDiff, type BatchObject, type RawChange } from '../src/git/core.js';
import { readIndexEntries, type IndexEntry } from '../src/git/git-index.js';
import { readLocalBlob } from '../src/git/local-blobs.js';
import { topLevelOf } from '../src/git/project-root.js';
import { localHead } from '../src/git/local-head.js';
import type { LocalRepository } from '../src/git/local-repository.js';
import { Layout } from '../src/layout.js';

const NO_DATA = Buffer.alloc(0);

/**
 * What `path` was at HEAD, from the staged diff and its staged entry: null when absent there,
 * undefined when the diff does not say for certain. Pure.
 */
export function headEntry(changes: readonly RawChange[], file: string, staged: IndexEntry | undefined): IndexEntry | null | undefined {
  const touching = changes.filter((c) => c.path === file || c.oldPath === file);
  if (touching.length === 0) return staged ?? null; // unchanged by this commit
  if (touching.length > 1) return undefined;
  const c = touching[0]!;
  // The diff and the index file must agree on what is staged at `file`.
  const stagedThere = c.path === file && c.status !== 'D' ? c.dstSha : null;
  if (stagedThere !== (staged?.sha ?? null)) return undefined;
  if (c.oldPath === file) return { mode: c.srcMode, sha: c.srcSha }; // renamed away
  if (c.status === 'A' || c.status === 'R') return null; // added, or renamed into place
  if (c.status === 'M' || c.status === 'T' || c.status === 'D') return { mode: c.srcMode, sha: c.srcSha };
  return undefined;
}

/** What the early reads ask of `git cat-file` (hooks/early-reads.ts); null: absent. */
export interface LocalMeta {
  readonly stagedIndex: BatchObject | null;
  readonly stagedConfig: BatchObject | null;
  readonly stagedExtended: BatchObject | null;
  readonly headIndex: BatchObject | null;
  readonly headExtended: BatchObject | null;
  /** HEAD's commit (only its name: `data` is empty), null on an unborn branch. */
  readonly headCommit: BatchObject | null;
}

/** What the files say before the diff is in: HEAD's commit and the staged constraint files and config. */
export interface StagedFromFiles {
  readonly head: string | null;
  readonly stagedIndexEntry: IndexEntry | undefined;
  readonly stagedIndex: BatchObject | null;
  readonly stagedConfig: BatchObject | null;
  readonly stagedExtendedEntry: IndexEntry | undefined;
  readonly stagedExtended: BatchObject | null;
  /** Reads a blob as the staged ones were read (undefined: not on disk as a verified blob). */
  readonly read: (file: string, entry: IndexEntry | null | undefined) => BatchObject | null | undefined;
}

/**
 * The part of the answers the staged diff is not needed for, read while git computes it (the
 * launcher calls this right after starting git); null when git must be asked.
 */
export function stagedFromFiles(local: LocalRepository, env: NodeJS.ProcessEnv): StagedFromFiles | null {
  if (local.hashBytes === null) return null;
  const head = localHead(local.gitDir);
  if (head === undefined) return null;
  // git runs the hook at the top level, so a relative GIT_INDEX_FILE (`git commit -a`) names the same file for both.
  const indexFile = env['GIT_INDEX_FILE'] ? path.resolve(local.topLevel, env['GIT_INDEX_FILE']) : path.join(local.gitDir, 'index');
  let indexData: Buffer;
  try {
    indexData = readFileSync(indexFile);
  } catch {
    return null;
  }
  // The project root is the top level here (prefix ''): the index file names paths from there.
  const [indexAt, configAt, extendedAt] = [
    topLevelOf(Layout.constraintIndex, ''),
    topLevelOf(Layout.config, ''),
    topLevelOf(Layout.extendedIndex, ''),
  ];
  const staged = readIndexEntries(indexData, [indexAt, configAt, extendedAt], local.hashBytes);
  if (staged === null) return null;
  const objects = path.join(local.gitDir, 'objects');
  const read = (file: string, entry: IndexEntry | null | undefined): BatchObject | null | undefined => {
    if (entry === null || entry === undefined) return null;
    if (entry.mode === '160000') return undefined; // a submodule's commit, not a blob
    const data = readLocalBlob(local.topLevel, objects, { path: file, mode: entry.mode, sha: entry.sha });
    return data === null ? undefined : { id: entry.sha, data };
  };
  const stagedIndexEntry = staged.get(indexAt);
  const stagedIndex = read(Layout.constraintIndex, stagedIndexEntry);
  const stagedConfig = read(Layout.config, staged.get(configAt));
  const stagedExtendedEntry = staged.get(extendedAt);
  const stagedExtended = read(Layout.extendedIndex, stagedExtendedEntry);
  if (stagedIndex === undefined || stagedConfig === undefined || stagedExtended === undefined) return null;
  return { head, stagedIndexEntry, stagedIndex, stagedConfig, stagedExtendedEntry, stagedExtended, read };
}

/** A constraint file at HEAD, from the staged diff (undefined: not certain). */
function atHead(files: StagedFromFiles, changes: readonly RawChange[], file: string): BatchObject | null | undefined {
  const entry = file === Layout.constraintIndex ? files.stagedIndexEntry : files.stagedExtendedEntry;
  const staged = file === Layout.constraintIndex ? files.stagedIndex : files.stagedExtended;
  const before = headEntry(changes, file, entry);
  if (before === undefined) return undefined;
  return before?.sha === entry?.sha ? staged : files.read(file, before);
}

/** The answers, once the staged diff is in (it names HEAD's constraint files); null when git must be asked. */
export function withStagedDiff(files: StagedFromFiles, diff: Buffer): LocalMeta | null {
  // An ordinary repository's hook runs at its top level, which is the project root (prefix '').
  const changes = changesAtRoot(parseRawDiff(diff), '');
  const headIndex = atHead(files, changes, Layout.constraintIndex);
  const headExtended = atHead(files, changes, Layout.extendedIndex);
  if (headIndex === undefined || headExtended === undefined) return null;
  const headCommit = files.head === null ? null : { id: files.head, data: NO_DATA };
  return {
    stagedIndex: files.stagedIndex,
    stagedConfig: files.stagedConfig,
    stagedExtended: files.stagedExtended,
    headIndex,
    headExtended,
    headCommit,
  };
}

/** The early reads' answers, or null when git must be asked. */
export function localMeta(local: LocalRepository, diff: Buffer, env: NodeJS.ProcessEnv): LocalMeta | null {
  const files = stagedFromFiles(local, env);
  return files === null ? null : withStagedDiff(files, diff);
}
