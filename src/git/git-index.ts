/**
 * A few entries of git's index file (`.git/index`, or the one GIT_INDEX_FILE names), read from
 * the file instead of asking a `git cat-file` process for `:<path>` (docs/hooks.md "Speed").
 * Only the plain formats are read: versions 2 to 4, no split index and no sparse directories.
 * Anything else — a required extension this reader does not know, an entry in conflict or only
 * intended to be added, a file cut short — is null, and the caller asks git, as before. Pure.
 * Format: https://git-scm.com/docs/index-format
 */

import type { TopLevelPath } from '../paths.js';
import { topLevelText } from './project-root.js';

/** A stage-0 entry of the index: what `:<path>` names. */
export interface IndexEntry {
  readonly mode: string;
  readonly sha: string;
}

const HEADER = 12;
/** ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 bytes each). */
const STAT_BYTES = 40;
const FLAG_EXTENDED = 0x4000;
const FLAG_STAGE = 0x3000;
const FLAG_NAME_LENGTH = 0x0fff;
const EXTENDED_INTENT_TO_ADD = 0x2000;

/**
 * The stage-0 entries of `paths` (from the top level: the index file names every path so) in the index file `data`, absent when the index has no entry
 * for a path; or null when this reader cannot vouch for the answer (see above). `hashBytes` is 20
 * for SHA-1 repositories, 32 for SHA-256.
 */
export function readIndexEntries(data: Buffer, paths: readonly TopLevelPath[], hashBytes: 20 | 32): Map<TopLevelPath, IndexEntry> | null {
  if (data.length < HEADER || data.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = data.readUInt32BE(8);
  const wanted = paths.map((p) => Buffer.from(topLevelText(p), 'utf8'));
  const found = new Map<TopLevelPath, IndexEntry>();
  // The bytes of the end of the index: its checksum. Entries and extensions stop before it.
  const end = data.length - hashBytes;
  // Every commit walks the whole index (thousands of entries), mostly before V8 has optimised
  // this loop: no allocation, no iterator and no call per entry but for a name of a wanted length.
  // A v4 name is rebuilt in place in `name`, the previous one's prefix kept.
  let name = version === 4 ? Buffer.allocUnsafe(4096) : data;
  let nameLength = 0;
  let pos = HEADER;
  for (let i = 0; i < count; i += 1) {
    const start = pos;
    const flagsAt = start + STAT_BYTES + hashBytes;
    if (flagsAt + 2 > end) return null;
    const flags = (data[flagsAt]! << 8) | data[flagsAt + 1]!;
    let nameAt = flagsAt + 2;
    let extended = 0;
    if ((flags & FLAG_EXTENDED) !== 0) {
      if (version < 3 || nameAt + 2 > end) return null;
      extended = (data[nameAt]! << 8) | data[nameAt + 1]!;
      nameAt += 2;
    }
    let nameStart = nameAt;
    if (version === 4) {
      // The name is the previous name with N bytes cut off its end, then a NUL-terminated suffix.
      const cut = readVarint(data, nameAt, end);
      if (cut === null || cut.value > nameLength) return null;
      const nul = data.indexOf(0, cut.next);
      if (nul === -1 || nul >= end) return null;
      const kept = nameLength - cut.value;
      if (kept + (nul - cut.next) > name.length) {
        const longer = Buffer.allocUnsafe(2 * (kept + (nul - cut.next)));
        name.copy(longer, 0, 0, kept);
        name = longer;
      }
      data.copy(name, kept, cut.next, nul);
      nameLength = kept + (nul - cut.next);
      nameStart = 0;
      pos = nul + 1;
    } else {
      // A name of 0xFFF bytes or more says 0xFFF; the NUL ends it either way.
      const length = flags & FLAG_NAME_LENGTH;
      const nul = length < FLAG_NAME_LENGTH ? nameAt + length : data.indexOf(0, nameAt + FLAG_NAME_LENGTH);
      if (nul === -1 || nul >= end || data[nul] !== 0) return null;
      nameLength = nul - nameAt;
      // Padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start.
      pos = start + ((nul - start + 8) & ~7);
    }
    for (let k = 0; k < wanted.length; k += 1) {
      if (wanted[k]!.length !== nameLength || name.compare(wanted[k]!, 0, nameLength, nameStart, nameStart + nameLength) !== 0) continue;
      const path = paths[k]!;
      if ((flags & FLAG_STAGE) !== 0 || (extended & EXTENDED_INTENT_TO_ADD) !== 0 || found.has(path)) return null;
      const mode = data.readUInt32BE(start + 24);
      found.set(path, { mode: mode.toString(8), sha: data.toString('hex', start + STAT_BYTES, start + STAT_BYTES + hashBytes) });
    }
  }
  return extensionsAreKnown(data, pos, end) ? found : null;
}

/**
 * True when every extension after the entries is optional (its signature starts with a capital
 * letter: git itself ignores those it does not know) and they end exactly at the checksum. A
 * required one (`link`: a split index, `sdir`: a sparse one) changes what the entries mean.
 */
function extensionsAreKnown(data: Buffer, from: number, end: number): boolean {
  let pos = from;
  while (pos < end) {
    if (pos + 8 > end) return false;
    const first = data[pos]!;
    if (first < 0x41 || first > 0x5a) return false;
    pos += 8 + data.readUInt32BE(pos + 4);
  }
  return pos === end;
}

/** git's offset varint (index v4): big-endian 7-bit groups, each continuation adding one. */
function readVarint(data: Buffer, at: number, end: number): { value: number; next: number } | null {
  let pos = at;
  if (pos >= end) return null;
  let byte = data[pos++]!;
  let value = byte & 0x7f;
  while ((byte & 0x80) !== 0) {
    if (pos >= end || value > 0xffffff) return null;
    byte = data[pos++]!;
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return { value, next: pos };
}
