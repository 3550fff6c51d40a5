/**
 * The one registry writer (ARCHITECTURE.md, "Files in a user's repository"): `add`, `cite`,
 * `retire`, recurrence promotion, TTL retirement and `pull` all go through `updateRegistry`.
 *
 * Contract (docs/contracts/registry.md#atomic-update-rule): read the current file, merge or append
 * in memory, write the full result to a temp file under `.agents/findings/`, rename over the live
 * file — under `.agents/findings/registry.lock`, removed on every exit path. This module is that
 * I/O; what the merge does to the text is decided in the pure src/registry/merge.ts.
 */
import type { Stats } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isoSeconds } from '../clock.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import { UsageError } from '../exit-codes.js';
import { errorCode, isNotFound, readIfExists } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import { repoTarget, writeRepoFile, WriteRefusedError } from '../fs/repo-write.js';
import { Layout } from '../layout.js';
import { MutableRegistry, type RegistryDocument } from './document.js';
import { addToDocument, checkAddInputs, citeInDocument, mergedText, retireInDocument, type AddResult, type RetireChange } from './merge.js';

export type { RegistryDocument } from './document.js';
export { serializeEntry } from './document.js';
export { dedupKeyWarnings } from './rules.js';
export { entryProblems, fillEntry, mergeEntry, type AddResult, type RetireChange } from './merge.js';

function registryPaths(root: string): { file: string; lock: string } {
  return { file: repoTarget(root, Layout.registry), lock: repoTarget(root, Layout.registryLock) };
}

/**
 * Takes the registry lock, reads the registry, runs `mutate`, and writes atomically only when
 * the bytes change. If `mutate` throws, nothing is written and the lock is still released; a
 * written line that would fail the schema refuses the whole write (WriteRefusedError, exit 1).
 */
export async function updateRegistry<T>(
  root: string,
  mutate: (doc: RegistryDocument) => T | Promise<T>,
): Promise<{ result: T; changed: boolean }> {
  const { file, lock } = registryPaths(root);
  // A file where `.agents/findings/` should be would otherwise fail inside the lock code.
  await assertFolderUsable(path.dirname(file));
  return withLock(lock, async () => {
    await sweepStaleTempFiles(path.dirname(file));
    const current = (await readRegistryFile(file))?.toString('utf8') ?? null;
    const doc = new MutableRegistry(current ?? '');
    const result = await mutate(doc);
    const { text, changed, refusal } = mergedText(doc, current);
    if (refusal !== null) throw new WriteRefusedError(refusal);
    // The atomic writer puts its temp file next to the target, i.e. in `.agents/findings/`.
    if (changed) await writeRepoFile(root, Layout.registry, text);
    return { result, changed };
  });
}

/**
 * Temp names of the registry: the atomic writer's `.registry.jsonl.findings-<pid>-<n>.tmp`, and
 * write-file-atomic's `registry.jsonl.<uint32>` (used before src/fs/atomic.ts). Nothing else matches.
 */
const STALE_TEMP = /^(?:\.registry\.jsonl\.findings-\d+-\d+\.tmp|registry\.jsonl\.\d+)$/;

/**
 * Removes temp files a killed writer left behind (the writer cleans up on every failure it sees,
 * but a SIGKILL mid-write leaves a copy). Called under the registry lock: every
 * registry write goes through `updateRegistry`, so no live writer owns such a file now.
 */
async function sweepStaleTempFiles(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  for (const name of names) if (STALE_TEMP.test(name)) await rm(path.join(dir, name), { force: true });
}

/** Exit 2 naming the registry path (not an internal error) when the registry's folder is not a folder. */
async function assertFolderUsable(dir: string): Promise<void> {
  let st: Stats;
  try {
    st = await stat(dir);
  } catch (error) {
    if (isNotFound(error)) return; // created on the first write
    throw new UsageError(`${Layout.registry}: cannot read the registry (${errorCode(error) ?? String(error)})`);
  }
  if (!st.isDirectory())
    throw new UsageError(`${Layout.registry}: cannot read the registry (ENOTDIR: ${Layout.findingsDir} is not a folder)`);
}

/** The registry's bytes, null when absent; anything else (EISDIR, EACCES, …) → exit 2 naming the path. */
async function readRegistryFile(file: string): Promise<Buffer | null> {
  try {
    return await readIfExists(file);
  } catch (error) {
    const code = errorCode(error);
    const reason = code === 'EISDIR' ? 'EISDIR: it is a directory' : (code ?? (error instanceof Error ? error.message : String(error)));
    throw new UsageError(`${Layout.registry}: cannot read the registry (${reason})`);
  }
}

export interface AddOptions {
  /** Display name of the input for diagnostics (default `<input>`). */
  source?: string;
}

/**
 * `findings add`: validates every input first; merges by dedup_key (new key → appended line,
 * known key → that line updated in place). Any error → diagnostics and nothing written.
 */
export async function addEntries(root: string, inputs: readonly unknown[], options: AddOptions = {}): Promise<AddResult> {
  const source = options.source ?? '<input>';
  const checked = checkAddInputs(inputs, source);
  if (hasErrors(checked.diagnostics)) return { diagnostics: checked.diagnostics, appended: [], updated: [], unchanged: [] };
  const { result } = await updateRegistry(root, (doc) => addToDocument(doc as MutableRegistry, checked.entries, source));
  return { ...result, diagnostics: [...checked.diagnostics, ...result.diagnostics] };
}

/** `findings retire`: status `retired`, or `superseded` + `superseded_by` (the replacement must exist). */
export async function retireEntries(root: string, changes: readonly RetireChange[]): Promise<{ diagnostics: Diagnostic[] }> {
  const { result } = await updateRegistry(root, (doc) => retireInDocument(doc, changes));
  return { diagnostics: result };
}

/** `findings cite`: `hit_count + 1` and `last_cited = at` for each distinct id; an unknown id → error, nothing written. */
export async function citeEntries(root: string, ids: readonly string[], at: Date): Promise<{ diagnostics: Diagnostic[] }> {
  const stamp = isoSeconds(at);
  const { result } = await updateRegistry(root, (doc) => citeInDocument(doc, ids, stamp));
  return { diagnostics: result };
}

/** Absolute path of the registry under `root` (for messages and tests). */
export function registryFile(root: string): string {
  return path.join(root, Layout.registry);
}
