/**
 * The one registry writer (ARCHITECTURE.md, "Files in a user's repository"): `add`, `cite`,
 * `retire`, recurrence promotion, TTL retirement and `pull` all go through `updateRegistry`.
 *
 * Contract (docs/contracts/registry.md#atomic-update-rule): read the current file, merge or append
 * in memory, write the full result to a temp file under `.agents/findings/`, rename over the live
 * file — under `.agents/findings/registry.lock`, removed on every exit path.
 */
import type { Stats } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isoSeconds } from '../clock.js';
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { UsageError } from '../exit-codes.js';
import { errorCode, isNotFound, readIfExists } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import { isPlainObject } from '../jsonl.js';
import { caseClash, idFileNameProblem, Layout } from '../layout.js';
import { repoTarget, writeRepoFile, WriteRefusedError } from '../fs/repo-write.js';
import { validate } from '../schema.js';
import type { RegistryEntry } from '../types.js';
import { MutableRegistry, type RegistryDocument } from './document.js';
import { dedupKeyWarnings, schemaMessage, supersededByProblem } from './rules.js';
import { normalizeDedupKey } from './normalize.js';

export type { RegistryDocument } from './document.js';
export { serializeEntry } from './document.js';
export { dedupKeyWarnings } from './rules.js';

function registryPaths(root: string): { file: string; lock: string } {
  return { file: repoTarget(root, Layout.registry), lock: repoTarget(root, Layout.registryLock) };
}

/**
 * Takes the registry lock, reads the registry, runs `mutate`, and writes atomically only when
 * the bytes change. If `mutate` throws, nothing is written and the lock is still released.
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
    const current = await readRegistryFile(file);
    const doc = new MutableRegistry(current === null ? '' : current.toString('utf8'));
    const result = await mutate(doc);
    const text = doc.text();
    const changed = doc.dirty && (current === null || current.toString('utf8') !== text);
    if (changed) refuseInvalidLines(doc);
    // The atomic writer puts its temp file next to the target, i.e. in `.agents/findings/`.
    if (changed) await writeRepoFile(root, Layout.registry, text);
    return { result, changed };
  });
}

/**
 * Re-reads every line the mutation wrote, as it will be on disk, and refuses the whole write when
 * one would fail the registry schema: a writer never writes a line `findings validate` rejects
 * (e.g. `cite` on `hit_count: 1e400` — JSON.parse gives Infinity, +1 stays Infinity, and
 * JSON.stringify writes `null`).
 */
function refuseInvalidLines(doc: MutableRegistry): void {
  for (const { line, text } of doc.writtenLines()) {
    let problems: string[];
    try {
      problems = entryProblems(JSON.parse(text));
    } catch (error) {
      problems = [error instanceof Error ? error.message : String(error)];
    }
    if (problems.length > 0) {
      throw new WriteRefusedError(
        `refused to write ${Layout.registry}:${line}, which would not be a valid registry entry: ${schemaMessage(problems)}; nothing written`,
      );
    }
  }
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

/**
 * Fills what the contract lets a writer fill (docs/registry.md): `version: 1`, `dedup_key` from the
 * normalization when absent, `hit_count: 0`, `last_cited: null`, `superseded_by: null`. Pure.
 */
export function fillEntry(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  out['version'] ??= 1;
  out['hit_count'] ??= 0;
  if (!('last_cited' in out)) out['last_cited'] = null;
  if (!('superseded_by' in out)) out['superseded_by'] = null;
  const { category, pattern, applicable_when: when } = out;
  if (
    out['dedup_key'] === undefined &&
    typeof category === 'string' &&
    typeof pattern === 'string' &&
    Array.isArray(when) &&
    when.every((w) => typeof w === 'string')
  ) {
    out['dedup_key'] = normalizeDedupKey(category, pattern, when as string[]);
  }
  return out;
}

const nonEmpty = (s: string | undefined): s is string => typeof s === 'string' && s.trim() !== '';

/** The later of two ISO timestamps (either may be null). */
function laterTimestamp(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/**
 * Merges an incoming observation into the existing line with the same dedup_key
 * (docs/contracts/registry.md#write-path-semantics): keeps `id` and `date`; takes the newer non-empty
 * `pattern`, `detection_question` and `checklist_item`; writes lifecycle fields (`status`,
 * `superseded_by`, `ttl_days`, `confidence`) explicitly from the incoming record. Citation
 * telemetry is never lost: `hit_count` is the larger and `last_cited` the later of the two. Pure.
 */
export function mergeEntry(existing: RegistryEntry, incoming: RegistryEntry): RegistryEntry {
  return {
    ...existing,
    ...incoming,
    id: existing.id,
    date: existing.date,
    pattern: nonEmpty(incoming.pattern) ? incoming.pattern : existing.pattern,
    detection_question: nonEmpty(incoming.detection_question) ? incoming.detection_question : existing.detection_question,
    checklist_item: nonEmpty(incoming.checklist_item) ? incoming.checklist_item : existing.checklist_item,
    status: incoming.status ?? existing.status,
    superseded_by: incoming.superseded_by ?? null,
    ttl_days: incoming.ttl_days ?? existing.ttl_days,
    confidence: nonEmpty(incoming.confidence) ? incoming.confidence : existing.confidence,
    hit_count: Math.max(existing.hit_count ?? 0, incoming.hit_count ?? 0),
    last_cited: laterTimestamp(existing.last_cited ?? null, incoming.last_cited ?? null),
  };
}

/** Schema problems of a candidate entry (empty when it is a valid registry line). */
export function entryProblems(value: unknown): string[] {
  if (!isPlainObject(value)) return ['a registry entry must be a JSON object'];
  return validate('finding-registry', value);
}

export interface AddOptions {
  /** Display name of the input for diagnostics (default `<input>`). */
  source?: string;
}

export interface AddResult {
  diagnostics: Diagnostic[];
  appended: string[];
  updated: string[];
  unchanged: string[];
}

function label(index: number, value: unknown): string {
  const id = isPlainObject(value) && typeof value['id'] === 'string' ? ` (id "${value['id']}")` : '';
  return `entry ${index + 1}${id}`;
}

/** Pure per-entry checks before touching the registry. */
function checkInputs(inputs: readonly unknown[], source: string): { entries: RegistryEntry[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const entries: RegistryEntry[] = [];
  inputs.forEach((input, i) => {
    const where = label(i, input);
    if (!isPlainObject(input)) {
      diagnostics.push(
        diagnostic({ file: source, ruleId: 'registry/schema', message: `${where}: a registry entry must be a JSON object` }),
      );
      return;
    }
    const filled = fillEntry(input);
    const problems = entryProblems(filled);
    if (problems.length > 0) {
      diagnostics.push(diagnostic({ file: source, ruleId: 'registry/schema', message: `${where}: ${schemaMessage(problems)}` }));
      return;
    }
    const entry = filled as unknown as RegistryEntry;
    // Ids become artifact file names (`.agents/findings/<id>.md`): refuse what could escape.
    const idProblem = idFileNameProblem(entry.id);
    if (idProblem !== null) {
      diagnostics.push(
        diagnostic({ file: source, ruleId: 'registry/unsafe-id', message: `${where}: id ${idProblem} (it becomes a file name)` }),
      );
      return;
    }
    diagnostics.push(...dedupKeyWarnings(entry, source, 0, `${where}: `));
    entries.push(entry);
  });
  return { entries, diagnostics };
}

function applyAdds(doc: MutableRegistry, entries: readonly RegistryEntry[], source: string): AddResult {
  const result: AddResult = { diagnostics: [], appended: [], updated: [], unchanged: [] };
  const touched = new Map<string, 'appended' | 'updated' | 'unchanged'>();
  // Which input wrote which line, so the merged result can be checked once the batch is in.
  const written: { line: number; where: string; input: RegistryEntry }[] = [];
  entries.forEach((entry, i) => {
    const where = label(i, entry);
    const existing = doc.byDedupKey(entry.dedup_key);
    if (existing) {
      const merged = mergeEntry(existing.entry, entry);
      const id = merged.id;
      const state = doc.replace(existing.line, merged) ? 'updated' : 'unchanged';
      if (touched.get(id) !== 'appended' && touched.get(id) !== 'updated') touched.set(id, state);
      written.push({ line: existing.line, where, input: entry });
      return;
    }
    // `f-A` beside `f-a`: one artifact file on case-insensitive file systems.
    const sameButCase = caseClash(
      entry.id,
      doc.entries.map((e) => e.entry.id),
    );
    if (sameButCase !== undefined) {
      result.diagnostics.push(
        diagnostic({
          file: source,
          ruleId: 'registry/case-clash',
          message: `${where}: id "${entry.id}" differs from "${sameButCase}" only in case (they would be one file on Windows and macOS)`,
        }),
      );
      return;
    }
    const clash = doc.byId(entry.id);
    if (clash) {
      result.diagnostics.push(
        diagnostic({
          file: source,
          ruleId: 'registry/duplicate-id',
          message: `${where}: id "${entry.id}" is already used by ${Layout.registry}:${clash.line} (dedup_key "${clash.entry.dedup_key}")`,
        }),
      );
      return;
    }
    written.push({ line: doc.append(entry), where, input: entry });
    touched.set(entry.id, 'appended');
  });
  result.diagnostics.push(...supersededByDiagnostics(doc, written, source));
  for (const [id, state] of touched) result[state].push(id);
  return result;
}

/**
 * `findings validate`'s `registry/superseded-by` rule on the lines a batch wrote, as they stand
 * after merging (a merge keeps the existing id, so `f-z` superseded by `f-y` merged into `f-y`
 * would name itself). A later entry of the batch may be the replacement.
 */
function supersededByDiagnostics(
  doc: MutableRegistry,
  written: readonly { line: number; where: string; input: RegistryEntry }[],
  source: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<number>();
  for (const w of [...written].reverse()) {
    const current = doc.entryAt(w.line);
    if (current === undefined) continue;
    const problem = supersededByProblem(current.entry, (id) => doc.byId(id) !== undefined);
    // A line written twice by the batch is reported once, for its last writer.
    if (problem === null || seen.has(w.line)) continue;
    seen.add(w.line);
    const merged = current.entry.id === w.input.id ? '' : `merged into "${current.entry.id}" (same dedup_key), whose `;
    out.push(diagnostic({ file: source, ruleId: 'registry/superseded-by', message: `${w.where}: ${merged}${problem}` }));
  }
  return out.reverse();
}

/**
 * `findings add`: validates every input first; merges by dedup_key (new key → appended line,
 * known key → that line updated in place). Any error → diagnostics and nothing written.
 */
export async function addEntries(root: string, inputs: readonly unknown[], options: AddOptions = {}): Promise<AddResult> {
  const source = options.source ?? '<input>';
  const checked = checkInputs(inputs, source);
  if (checked.diagnostics.some((d) => d.severity === 'error')) {
    return { diagnostics: checked.diagnostics, appended: [], updated: [], unchanged: [] };
  }
  const { result } = await updateRegistry(root, (doc) => {
    const real = doc as MutableRegistry;
    // Dry run on a copy so that an error in entry 7 leaves entries 1–6 unwritten too.
    const trial = applyAdds(real.clone(), checked.entries, source);
    if (trial.diagnostics.length > 0) return { diagnostics: trial.diagnostics, appended: [], updated: [], unchanged: [] };
    const done = applyAdds(real, checked.entries, source);
    return { ...done, diagnostics: keptLineWarnings(doc) };
  });
  return { ...result, diagnostics: [...checked.diagnostics, ...result.diagnostics] };
}

/** Lines the writer could not parse stay where they are, byte for byte; say so once per line. */
function keptLineWarnings(doc: RegistryDocument): Diagnostic[] {
  return doc.problems
    .filter((p) => p.kind !== 'yaml-block' || p.line === 1)
    .map((p) =>
      diagnostic({
        file: Layout.registry,
        line: p.line,
        severity: 'warning',
        ruleId: 'registry/kept-line',
        message: `${p.reason}; line kept unchanged`,
      }),
    );
}

export interface RetireChange {
  id: string;
  supersededBy?: string;
}

/** `findings retire`: status `retired`, or `superseded` + `superseded_by` (the replacement must exist). */
export async function retireEntries(root: string, changes: readonly RetireChange[]): Promise<{ diagnostics: Diagnostic[] }> {
  const { result } = await updateRegistry(root, (doc) => {
    const diagnostics: Diagnostic[] = [];
    const plan: { line: number; entry: RegistryEntry }[] = [];
    for (const c of changes) {
      const target = doc.byId(c.id);
      if (!target) {
        diagnostics.push(unknownId(c.id));
        continue;
      }
      const entry: RegistryEntry =
        c.supersededBy === undefined
          ? { ...target.entry, status: 'retired', superseded_by: null }
          : { ...target.entry, status: 'superseded', superseded_by: c.supersededBy };
      // The same rule validate applies: no self-reference, the replacement must exist.
      const problem = supersededByProblem(entry, (id) => doc.byId(id) !== undefined);
      if (problem !== null) {
        diagnostics.push(diagnostic({ file: Layout.registry, ruleId: 'registry/superseded-by', message: `"${c.id}": ${problem}` }));
        continue;
      }
      plan.push({ line: target.line, entry });
    }
    if (diagnostics.length === 0) for (const p of plan) doc.replace(p.line, p.entry);
    return diagnostics;
  });
  return { diagnostics: result };
}

function unknownId(id: string): Diagnostic {
  return diagnostic({ file: Layout.registry, ruleId: 'registry/unknown-id', message: `unknown finding id "${id}"` });
}

/**
 * `findings cite`: `hit_count + 1` and `last_cited = at` (ISO 8601 UTC) for each distinct id
 * (docs/contracts/registry.md#lifecycle-notes). An unknown id → error, nothing written.
 */
export async function citeEntries(root: string, ids: readonly string[], at: Date): Promise<{ diagnostics: Diagnostic[] }> {
  const stamp = isoSeconds(at);
  const { result } = await updateRegistry(root, (doc) => {
    const distinct = [...new Set(ids)];
    const missing = distinct.filter((id) => !doc.byId(id));
    if (missing.length > 0) return missing.map(unknownId);
    for (const id of distinct) {
      const target = doc.byId(id)!;
      doc.replace(target.line, { ...target.entry, hit_count: target.entry.hit_count + 1, last_cited: stamp });
    }
    return [];
  });
  return { diagnostics: result };
}

/** Absolute path of the registry under `root` (for messages and tests). */
export function registryFile(root: string): string {
  return path.join(root, Layout.registry);
}
