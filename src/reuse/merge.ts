/**
 * The merge policy of `findings pull` (docs/reuse.md), as a pure planning step over values: the
 * command reads the registry and the source, asks this module what to change, then applies it
 * through the registry writer.
 *
 * Policy (docs/reuse.md, "Merge policy"):
 * - the source's `active` entries are imported with `tier` = pulled|seed, their `source`
 *   provenance as it was at the origin, merged by `dedup_key` (docs/contracts/registry.md#write-path-semantics);
 * - a local entry (tier `local`) always keeps its own wording and lifecycle;
 * - an entry this source imported earlier is updated by the next pull of the same source,
 *   unless it was edited here since (its content digest differs from the one recorded in
 *   sources.json): an edit is a local takeover, and survives;
 * - entries this source owned that it retired, superseded, or no longer has are retired here
 *   (superseded when the replacement exists here), unless a local entry took them over;
 * - an entry another source owns, or a pulled/seed line no source owns, is left alone.
 * Citation telemetry is never lost: `hit_count` is the larger, `last_cited` the later.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { stableLine } from '../json-stable.js';
import { idFileNameProblem } from '../layout.js';
import type { RegistryLine } from '../registry/reader.js';
import { REGISTRY_KEY_ORDER, type RegistryEntry } from '../types.js';
import { entryDigest } from './digest.js';
import type { PullTier, SourceEntryRecord, SourceRecord } from './sources-file.js';

export type PlanOp =
  | { readonly kind: 'append'; readonly entry: RegistryEntry }
  | { readonly kind: 'replace'; readonly line: number; readonly entry: RegistryEntry };

export interface PlanInput {
  /** The registry here, valid lines in file order. */
  readonly registry: readonly RegistryLine[];
  /** The source's valid registry lines, in its file order (every status). */
  readonly incoming: readonly RegistryEntry[];
  /** What the previous pull of this source recorded, if any. */
  readonly record: SourceRecord | undefined;
  /** Ids other recorded sources own here. */
  readonly ownedElsewhere: ReadonlySet<string>;
  readonly tier: PullTier;
  /** Display name of the source registry, for diagnostics. */
  readonly sourceFile: string;
}

export interface PullPlan {
  readonly ops: readonly PlanOp[];
  /** The new ownership record (ids + digests), unsorted. */
  readonly entries: readonly SourceEntryRecord[];
  readonly added: readonly string[];
  readonly updated: readonly string[];
  readonly unchanged: readonly string[];
  readonly retired: readonly string[];
  /** Ids left as they are here because a local entry or a local edit wins. */
  readonly keptLocal: readonly string[];
  /** Source id → id here, for imported entries this pull wrote (artifacts follow them). */
  readonly written: ReadonlyMap<string, string>;
  readonly diagnostics: readonly Diagnostic[];
}

const later = (a: string | null, b: string | null): string | null =>
  a === null ? b : b === null ? a : Date.parse(b) > Date.parse(a) ? b : a;

/** The line a pull writes for a source entry, keeping this repository's id and telemetry. Pure. */
export function importedEntry(incoming: RegistryEntry, tier: PullTier, existing?: RegistryEntry): RegistryEntry {
  const entry: RegistryEntry = { ...structuredClone(incoming), tier };
  if (existing === undefined) return entry;
  return {
    ...entry,
    id: existing.id,
    hit_count: Math.max(existing.hit_count, incoming.hit_count),
    last_cited: later(existing.last_cited, incoming.last_cited),
  };
}

/** Plans one pull. Pure: O(registry + source). */
export function planPull(input: PlanInput): PullPlan {
  const { tier, sourceFile } = input;
  const diagnostics: Diagnostic[] = [];
  const ops: PlanOp[] = [];
  const added: string[] = [];
  const updated: string[] = [];
  const unchanged: string[] = [];
  const retired: string[] = [];
  const keptLocal: string[] = [];
  const written = new Map<string, string>();

  // Indexes over the registry here, kept current as the plan appends (byDedupKey semantics of
  // the registry document: the active line, else the latest).
  const byId = new Map<string, RegistryLine>();
  const byKey = new Map<string, RegistryLine>();
  for (const l of input.registry) {
    byId.set(l.entry.id, l);
    const cur = byKey.get(l.entry.dedup_key);
    if (cur === undefined || cur.entry.status !== 'active') byKey.set(l.entry.dedup_key, l);
  }
  const current = new Map<number, RegistryEntry>();
  const entryOf = (l: RegistryLine): RegistryEntry => current.get(l.line) ?? l.entry;
  const previous = new Map((input.record?.entries ?? []).map((e) => [e.id, e.digest]));
  const owned = new Map<string, string>();
  const touched = new Set<number>();
  let nextVirtual = -1;

  const replace = (l: RegistryLine, entry: RegistryEntry, list: string[]): void => {
    touched.add(l.line);
    const before = entryOf(l);
    if (stableLine(before, REGISTRY_KEY_ORDER) === stableLine(entry, REGISTRY_KEY_ORDER)) {
      unchanged.push(entry.id);
    } else {
      list.push(entry.id);
      if (l.line > 0) ops.push({ kind: 'replace', line: l.line, entry });
      current.set(l.line, entry);
    }
  };
  const isEdited = (l: RegistryLine): boolean => previous.get(l.entry.id) !== entryDigest(l.entry);

  const sourceById = new Map<string, RegistryEntry>();
  const seenKeys = new Set<string>();
  for (const s of input.incoming) sourceById.set(s.id, s);

  for (const s of input.incoming) {
    if (s.status !== 'active') continue;
    const idProblem = idFileNameProblem(s.id);
    if (idProblem !== null) {
      diagnostics.push(
        diagnostic({
          file: sourceFile,
          severity: 'warning',
          ruleId: 'pull/unsafe-id',
          message: `id "${s.id}" ${idProblem} (it becomes a file name); not imported`,
        }),
      );
      continue;
    }
    if (seenKeys.has(s.dedup_key)) {
      diagnostics.push(
        diagnostic({
          file: sourceFile,
          severity: 'warning',
          ruleId: 'pull/duplicate-in-source',
          message: `"${s.id}": another active line of the source has dedup_key "${s.dedup_key}"; only the first is imported`,
        }),
      );
      continue;
    }
    seenKeys.add(s.dedup_key);
    const target = byKey.get(s.dedup_key) ?? byId.get(s.id);
    if (target === undefined) {
      const entry = importedEntry(s, tier);
      ops.push({ kind: 'append', entry });
      const virtual: RegistryLine = { line: nextVirtual, entry, raw: { line: nextVirtual, text: '', eol: '' } };
      nextVirtual -= 1;
      touched.add(virtual.line);
      byId.set(entry.id, virtual);
      byKey.set(entry.dedup_key, virtual);
      added.push(entry.id);
      owned.set(entry.id, entryDigest(entry));
      written.set(s.id, entry.id);
      continue;
    }
    const here = target.entry;
    const sameKey = here.dedup_key === s.dedup_key;
    if (touched.has(target.line)) {
      diagnostics.push(
        diagnostic({
          file: sourceFile,
          severity: 'warning',
          ruleId: 'pull/id-conflict',
          message: `"${s.id}" (dedup_key "${s.dedup_key}") matches a line this pull already wrote; not imported`,
        }),
      );
      continue;
    }
    if (here.tier === 'local') {
      // A local entry always keeps its own wording and lifecycle (docs/reuse.md).
      if (!sameKey) {
        diagnostics.push(
          diagnostic({
            file: sourceFile,
            severity: 'warning',
            ruleId: 'pull/id-conflict',
            message: `id "${s.id}" is already used here by a local entry with another dedup_key ("${here.dedup_key}"); not imported`,
          }),
        );
      } else {
        keptLocal.push(here.id);
      }
      continue;
    }
    if (previous.has(here.id)) {
      if (isEdited(target)) {
        // Edited here since the last pull: a local takeover; keep the recorded digest so it
        // stays recognised as edited at the next pull too.
        keptLocal.push(here.id);
        owned.set(here.id, previous.get(here.id)!);
        continue;
      }
      const entry = importedEntry(s, tier, here);
      replace(target, entry, updated);
      owned.set(entry.id, entryDigest(entry));
      written.set(s.id, entry.id);
      continue;
    }
    const why = input.ownedElsewhere.has(here.id) ? 'was pulled from another source' : `is a ${here.tier} line no recorded source owns`;
    diagnostics.push(
      diagnostic({
        file: sourceFile,
        severity: 'info',
        ruleId: 'pull/kept-existing',
        message: `"${s.id}": the line with ${sameKey ? `dedup_key "${s.dedup_key}"` : `id "${s.id}"`} here ("${here.id}") ${why}; left as it is`,
      }),
    );
  }

  // Entries this source owned that it no longer offers as active.
  for (const [id, digest] of previous) {
    if (owned.has(id)) continue;
    const l = byId.get(id);
    if (l === undefined || l.line < 0 || touched.has(l.line)) continue; // deleted here: forget it
    const here = entryOf(l);
    if (here.tier === 'local') continue; // taken over by a local entry: no longer ours
    if (entryDigest(here) !== digest) {
      keptLocal.push(id);
      owned.set(id, digest);
      continue;
    }
    const s = sourceById.get(id);
    const replacement =
      s?.status === 'superseded' && s.superseded_by !== null
        ? (written.get(s.superseded_by) ?? (byId.has(s.superseded_by) ? s.superseded_by : null))
        : null;
    const entry: RegistryEntry =
      replacement !== null && replacement !== id
        ? { ...here, status: 'superseded', superseded_by: replacement }
        : { ...here, status: 'retired', superseded_by: null };
    replace(l, entry, retired);
    owned.set(id, entryDigest(entry));
  }

  const entries = [...owned].map(([id, digest]) => ({ id, digest }));
  return { ops, entries, added, updated, unchanged, retired, keptLocal, written, diagnostics };
}
