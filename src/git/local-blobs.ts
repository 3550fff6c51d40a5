/**
 * Staged blobs read from files on disk instead of through a `git cat-file` process, which costs
 * a commit more than the reading itself (docs/hooks.md "Speed"). Two places usually hold a
 * staged blob's bytes: the working-tree file it was staged from, unchanged since `git add`, and
 * its loose-object file (`<objects>/ab/cdef…`, zlib-deflated `blob <size>\0<content>`), the form
 * `git add` writes it in until a gc packs it.
 *
 * Only ever a shortcut: a blob's name is the hash of its object, and bytes from either place
 * count only when they hash to that name. Anything else (a file edited after staging, a clean
 * filter or line-ending conversion, a symlink, a packed or missing object, a corrupt file) comes
 * back unread, and the caller asks git, so the content judged is always the object git names.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { crypto, zlib } from '../lazy-builtins.js';

const SHA1_HEX = /^[0-9a-f]{40}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The hash a repository names its objects with, from the name's length (SHA-1 or SHA-256). */
function hashOf(name: string): 'sha1' | 'sha256' | null {
  return SHA1_HEX.test(name) ? 'sha1' : SHA256_HEX.test(name) ? 'sha256' : null;
}

/** True when `content` is the blob named `name` (git hashes `blob <size>\0` followed by the content). */
function isBlob(name: string, hash: 'sha1' | 'sha256', content: Buffer): boolean {
  return crypto().createHash(hash).update(`blob ${content.length}\0`).update(content).digest('hex') === name;
}

/**
 * The content of blob `name` from its loose file under `objectsDir`, or null when it is not a
 * verified loose blob there. Never throws.
 */
export function readLooseBlob(objectsDir: string, name: string): Buffer | null {
  const hash = hashOf(name);
  if (hash === null) return null;
  let object: Buffer;
  try {
    object = zlib().inflateSync(readFileSync(path.join(objectsDir, name.slice(0, 2), name.slice(2))));
  } catch {
    return null;
  }
  const nul = object.indexOf(0);
  if (nul === -1 || nul > 32) return null;
  const size = /^blob (0|[1-9]\d*)$/.exec(object.subarray(0, nul).toString('latin1'))?.[1];
  if (size === undefined || Number(size) !== object.length - nul - 1) return null;
  const content = object.subarray(nul + 1);
  return isBlob(name, hash, content) ? content : null;
}

// Never through a symlink at the file itself, and never waiting on a FIFO or device for a writer.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The content of blob `name` from the regular file `abs`, or null when that file is not (or no
 * longer) exactly the blob. Never throws.
 */
export function readWorktreeBlob(abs: string, name: string): Buffer | null {
  const hash = hashOf(name);
  if (hash === null) return null;
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    const content = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, content, read, stat.size - read, null);
      if (n === 0) return null;
      read += n;
    }
    return isBlob(name, hash, content) ? content : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A staged file to read: its path under the top level, mode and blob name. */
export interface StagedBlob {
  readonly path: string;
  readonly mode: string;
  readonly sha: string;
}

const REGULAR_MODES = new Set(['100644', '100755']);

/**
 * The blob of `entry` found on disk: from the working tree under `root` (regular files only: a
 * symlink's blob is its link text), else from the loose objects in `objectsDir`; null when it
 * must be read from git.
 */
export function readLocalBlob(root: string, objectsDir: string, entry: StagedBlob): Buffer | null {
  // git's paths are already normal and `/`-separated: joining by hand spares a normalize per file.
  const abs = root.endsWith('/') ? `${root}${entry.path}` : `${root}/${entry.path}`;
  return (REGULAR_MODES.has(entry.mode) ? readWorktreeBlob(abs, entry.sha) : null) ?? readLooseBlob(objectsDir, entry.sha);
}

/** The blobs of `entries` found on disk (readLocalBlob), by name. Names missing from the result must be read from git. */
export function readLocalBlobs(root: string, objectsDir: string, entries: readonly StagedBlob[]): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const e of entries) {
    if (found.has(e.sha)) continue;
    const data = readLocalBlob(root, objectsDir, e);
    if (data !== null) found.set(e.sha, data);
  }
  return found;
}
