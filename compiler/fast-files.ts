/**
 * A RepoFiles over the working tree with synchronous reads. Same answers as worktreeFiles (a
 * symlink reads as its link text), but one `open(O_NOFOLLOW)` + read per file instead of an
 * awaited lstat + readFile: the no-op compile of the benchmark reads ~30,000 small files, and
 * awaiting each through the thread pool cost ~9 s there.
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../src/exit-codes.js';
import { worktreeFiles, type RepoFiles } from '../src/repo-files.js';

const codeOf = (error: unknown): string => String((error as { code?: unknown }).code ?? 'error');

/**
 * Only a file that does not exist reads as null. Anything else that stops the read — a folder
 * where a file should be (EISDIR), a file where a folder should be (ENOTDIR), no permission —
 * is an unreadable input (UsageError, exit 2) naming the path, never "missing": a registry that
 * silently reads as absent would retire nothing and promote nothing without a word.
 */
function readNoFollow(abs: string, rel: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') return Buffer.from(readlinkSync(abs), 'utf8');
    throw new UsageError(`cannot read ${rel} (${code})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UsageError(`cannot read ${rel}: it is ${st.isDirectory() ? 'a folder' : 'not a regular file'} (EISDIR)`);
    const buf = Buffer.allocUnsafe(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    return off === st.size ? buf : buf.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

/** The working tree under `root`, read synchronously. */
export function fastWorktreeFiles(root: string): RepoFiles {
  const base = worktreeFiles(root);
  return {
    label: base.label,
    root,
    list: async (dir) => {
      // base.list treats a file where the folder should be as an empty folder; refuse instead.
      const rel = dir.replace(/\/+$/, '');
      try {
        if (!statSync(path.join(root, rel)).isDirectory()) throw new UsageError(`cannot read ${rel}: it is a file, not a folder (ENOTDIR)`);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        const code = codeOf(error);
        if (code === 'ENOENT') return [];
        throw new UsageError(`cannot read ${rel} (${code})`);
      }
      return base.list(dir);
    },
    read: async (file) => readNoFollow(path.join(root, file), file),
  };
}
