/**
 * The write edge for files in the user's repository. Every writer — registry, review ledgers,
 * notes and task files, the constraint index, measurements, candidates, sources.json, pulled files
 * — resolves its target here before it writes: the file and its folder must resolve inside the
 * root through symlinks (src/paths.ts `resolveInsideRoot`), so a committed symlink such as
 * `.agents/reviews -> /elsewhere` cannot make a command write outside the repository. The bytes
 * then go through the one atomic writer (src/fs/atomic.ts).
 */
import { brandErrorClass, UsageError } from '../exit-codes.js';
import { resolveInsideRoot } from '../paths.js';
import { writeFileAtomically, writeIfChanged, type AtomicOptions } from './atomic.js';

/** The absolute path of repository-relative `rel`, or a UsageError (exit 2) naming why it may not be written. */
export function repoTarget(root: string, rel: string): string {
  const r = resolveInsideRoot(root, rel);
  if ('problem' in r) throw new UsageError(`${rel} ${r.problem}; nothing written`);
  return r.abs;
}

/** Writes `rel` under `root` atomically, after the containment check. */
export async function writeRepoFile(
  root: string,
  rel: string,
  data: string | Buffer,
  options: Omit<AtomicOptions, 'display'> = {},
): Promise<void> {
  await writeFileAtomically(repoTarget(root, rel), data, { ...options, display: rel });
}

/** Writes `rel` only when its bytes differ, after the containment check. */
export async function writeRepoFileIfChanged(
  root: string,
  rel: string,
  data: string,
  options: Omit<AtomicOptions, 'display'> = {},
): Promise<'created' | 'updated' | 'unchanged'> {
  return writeIfChanged(repoTarget(root, rel), data, { ...options, display: rel });
}

/**
 * A writer refused to write content it would itself reject (a registry line that fails the schema
 * once serialized, say `hit_count` overflowing to `null`). Nothing was written; exit 1.
 */
export class WriteRefusedError extends Error {
  override readonly name = 'WriteRefusedError';
}
brandErrorClass(WriteRefusedError, 'WriteRefusedError');
