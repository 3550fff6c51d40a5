/**
 * A RepoFiles over the working tree with synchronous reads. Same answers as worktreeFiles (a
 * symlink reads as its link text), but one synchronous `readFileSync` with O_NOFOLLOW per file
 * instead of an awaited lstat + readFile: the no-op compile of the benchmark reads ~30,000 small files, and
 * awaiting each through the thread pool cost ~9 s there.
 */
import { constants, readdirSync, readFileSync, readlinkSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../src/exit-codes.js';
import type { RepoFiles } from '../src/repo-files.js';

const NO_FOLLOW = (constants.O_RDONLY | constants.O_NOFOLLOW) as unknown as string;

const codeOf = (error: unknown): string => String((error as { code?: unknown }).code ?? 'error');

/**
 * Only a file that does not exist reads as null. Anything else that stops the read — a folder
 * where a file should be (EISDIR), a file where a folder should be (ENOTDIR), no permission —
 * is an unreadable input (UsageError, exit 2) naming the path, never "missing": a registry that
 * silently reads as absent would retire nothing and promote nothing without a word.
 */
function readNoFollow(abs: string, rel: string): Buffer | null {
  try {
    // readFileSync is what a plain reader of every file pays (open, fstat, read, close); O_NOFOLLOW
    // makes a symlink fail with ELOOP instead of being followed. (Node takes numeric flags; its
    // types only list the string ones.)
    return readFileSync(abs, { flag: NO_FOLLOW });
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') return Buffer.from(readlinkSync(abs), 'utf8');
    if (code === 'EISDIR') throw new UsageError(`cannot read ${rel}: it is a folder (EISDIR)`);
    throw new UsageError(`cannot read ${rel} (${code})`);
  }
}

/** A working-tree RepoFiles that can also be read without a promise per file. */
export interface FastFiles extends RepoFiles {
  readonly root: string;
  /** `read`, synchronously: 30,000 awaits are a measurable share of a no-op compile. */
  readSync(file: string): Buffer | null;
}

/** The working tree under `root`, read synchronously. */
export function fastWorktreeFiles(root: string): FastFiles {
  // Repository paths here are already normalised (listed, or layout constants), so the absolute
  // path is a concatenation rather than a path.join per file.
  const base = root.endsWith(path.sep) ? root : root + path.sep;
  const readSync = (file: string): Buffer | null => readNoFollow(base + file, file);
  return {
    label: 'worktree',
    root,
    list: async (dir) => listSync(root, dir),
    read: async (file) => readSync(file),
    readSync,
  };
}

/**
 * Files under `dir` (recursively; regular files and symlinks), sorted, as worktreeFiles lists
 * them, read with one synchronous readdir per folder. A missing folder is empty; a file where the
 * folder should be is refused (worktreeFiles would read it as an empty folder).
 */
function listSync(root: string, dir: string): string[] {
  const rel = dir.replace(/\/+$/, '');
  try {
    if (!statSync(path.join(root, rel)).isDirectory()) throw new UsageError(`cannot read ${rel}: it is a file, not a folder (ENOTDIR)`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = codeOf(error);
    if (code === 'ENOENT') return [];
    throw new UsageError(`cannot read ${rel} (${code})`);
  }
  const out: string[] = [];
  const walk = (r: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(root, r), { withFileTypes: true });
    } catch (error) {
      const code = codeOf(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw error;
    }
    for (const e of entries) {
      const child = r ? `${r}/${e.name}` : e.name;
      if (e.isDirectory()) walk(child);
      else if (e.isFile() || e.isSymbolicLink()) out.push(child);
    }
  };
  walk(rel);
  // The default sort compares UTF-16 code units, as compareStrings does.
  return out.sort();
}
