/**
 * Reads a blob straight from its loose-object file (`<objects>/ab/cdef…`, zlib-deflated
 * `blob <size>\0<content>`), the form `git add` writes every staged blob in until a gc packs it.
 * The commit hook reads the staged blobs this way instead of piping them through a
 * `git cat-file` process, which costs more than the inflating (docs/hooks.md "Speed").
 *
 * Only ever a shortcut: whatever is not a well-formed loose blob whose content hashes to its own
 * name (packed, in an alternate, compressed oddly, corrupt, another object type) comes back null
 * and the caller asks git, so the content judged is always the object git would hand out.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';

const SHA1_HEX = /^[0-9a-f]{40}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The hash a repository names its objects with, from the name's length (SHA-1 or SHA-256). */
function hashOf(name: string): 'sha1' | 'sha256' | null {
  return SHA1_HEX.test(name) ? 'sha1' : SHA256_HEX.test(name) ? 'sha256' : null;
}

/**
 * The content of blob `name` from its loose file under `objectsDir`, or null when it is not a
 * verified loose blob there. Pure apart from reading that one file; never throws.
 */
export function readLooseBlob(objectsDir: string, name: string): Buffer | null {
  const hash = hashOf(name);
  if (hash === null) return null;
  let object: Buffer;
  try {
    object = inflateSync(readFileSync(path.join(objectsDir, name.slice(0, 2), name.slice(2))));
  } catch {
    return null;
  }
  const nul = object.indexOf(0);
  if (nul === -1 || nul > 32) return null;
  const header = object.subarray(0, nul).toString('latin1');
  const size = /^blob (0|[1-9]\d*)$/.exec(header)?.[1];
  if (size === undefined || Number(size) !== object.length - nul - 1) return null;
  // The name is the hash of the whole object: a file that does not hash to it is not that blob.
  if (createHash(hash).update(object).digest('hex') !== name) return null;
  return object.subarray(nul + 1);
}
