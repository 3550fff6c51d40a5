/**
 * Publishing a folder that does not exist yet, whole (ARCHITECTURE.md "Writes"; docs/compiler.md
 * "Crash safety"). Every file goes into a fresh temp folder beside the target,
 * `.<name>.findings-<pid>-<n>.tmpdir`, with plain writes (each file created exclusively, every byte
 * written, its size checked as src/fs/atomic.ts does), then ONE rename makes the folder appear with
 * all its files. Readers see no folder or the whole folder, never a partial one, and the writer
 * pays one rename in all instead of a temp file and a rename per file: on a cold compile of
 * 10,000 findings that is 20,000 renames fewer.
 *
 * On any failure the temp folder is removed and the target does not exist; on SIGINT/SIGTERM/
 * SIGHUP too (src/fs/exit-cleanup.ts), except in a worker thread, which signals never reach
 * (compiler/write-changes.ts leaves that temp folder to the sweep). What a SIGKILL leaves is a temp
 * folder only, which the next run's `sweepTempFolders` removes (under the lock that guards the writer). No fsync: the callers
 * are compiled Markdown files that the next compile regenerates anyway, like the atomic writer's
 * `durable: false`.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { asWriteFailure, errorCode, nodeWriteOps, writeWholeFile, type WriteOps } from './atomic.js';
import { onExitCleanup } from './exit-cleanup.js';

/** Temp folders of this writer: `.<name>.findings-<pid>-<n>.tmpdir`, beside the target. */
export const TEMP_FOLDER = /^\..+\.findings-\d+-\d+\.tmpdir$/;

let counter = 0;

export interface NewFolderOptions {
  /** Replaced system calls (tests); the folder's rename goes through `ops.rename` too. */
  ops?: WriteOps;
  /** The folder's name for messages (repository-relative); a file is shown as `<display>/<name>`. Default the absolute path. */
  display?: string;
}

/**
 * Creates folder `abs` holding exactly `files` (plain names → bytes), published with one rename.
 * The parent folder must exist, and the caller has checked that it resolves inside the
 * repository (src/paths.ts). Returns false, having written nothing, when `abs` appeared meanwhile
 * with files in it (the caller then writes file by file); throws on anything else, with no folder
 * and no temp folder left.
 */
export function writeNewFolderSync(
  abs: string,
  files: Iterable<readonly [name: string, data: string | Buffer]>,
  options: NewFolderOptions = {},
): boolean {
  const ops = options.ops ?? nodeWriteOps;
  const list = [...files];
  for (const [name] of list) {
    // A name with a separator (or `.`/`..`) could place a file outside the folder that is vetted.
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes(path.sep))
      throw new Error(`not a plain file name: ${JSON.stringify(name)}`);
  }
  counter += 1;
  const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.findings-${process.pid}-${counter}.tmpdir`);
  // The default mode, as mkdir of the folder itself would give (umask applies).
  mkdirSync(tmp);
  const remove = (): void => rmSync(tmp, { recursive: true, force: true });
  const unregister = onExitCleanup(remove);
  let published = false;
  try {
    const base = tmp + path.sep;
    const shown = options.display ?? abs;
    for (const [name, data] of list) {
      // Not durable: compiled files the next compile regenerates (see above).
      writeWholeFile(base + name, typeof data === 'string' ? Buffer.from(data, 'utf8') : data, ops, {
        display: `${shown}/${name}`,
        durable: false,
      });
    }
    try {
      ops.rename(tmp, abs);
    } catch (error) {
      const code = errorCode(error);
      // Someone made the folder, with files, after the caller looked: theirs stays as it is.
      if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
      throw asWriteFailure(error, options.display ?? abs);
    }
    published = true;
    return true;
  } finally {
    unregister();
    if (!published) remove();
  }
}

/**
 * Removes the temp folders (`TEMP_FOLDER` names) a killed writer left directly in `dir`, without
 * following symlinks (an entry that is a symlink is unlinked, its target untouched). Call under
 * the writer's lock, before writing. Returns the names removed, sorted.
 */
export function sweepTempFolders(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!TEMP_FOLDER.test(name)) continue;
    try {
      // rm never follows a symlink: a link named like a temp folder is removed as a link.
      rmSync(path.join(dir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // gone already, or not removable: the next run tries again
    }
  }
  return removed.sort();
}
