/**
 * The registry's merge, pure: registry text (or its document) and entries in; the merged text,
 * what happened to each id, and diagnostics out. No file, lock or clock here: src/registry/writer.ts
 * reads the file under the lock, runs one of these, and writes the result atomically
 * (docs/contracts/registry.md#atomic-update-rule).
 *
 * Write-path semantics (docs/contracts/registry.md#write-path-semantics): an entry whose dedup_key
 * is known is merged into that line in place; a new key is appended; lines that are not valid
 * entries stay byte for byte where they are (docs/registry.md#design).
 */
import { diagnostic, hasErrors, type Diagnostic } from '../diagnostics.js';
import { isPlainObject } from '../jsonl.js';
import { caseClash, idFileNameProblem, Layout } from '../layout.js';
import { validate } from '../schema.js';
import type { RegistryEntry } from '../types.js';
import { MutableRegistry, type RegistryDocument } from './document.js';
import { normalizeDedupKey } from './normalize.js';
import { dedupKeyWarnings, schemaMessage, supersededByProblem } from './rules.js';

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

/** Per-entry checks before touching the registry: schema, safe id, dedup-key warnings. */
export function checkAddInputs(inputs: readonly unknown[], source: string): { entries: RegistryEntry[]; diagnostics: Diagnostic[] } {
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
 * `findings add` on a document: merges by dedup_key (new key → appended line, known key → that
 * line updated in place). A dry run on a copy first, so that an error in entry 7 leaves entries
 * 1–6 unwritten too; then the lines kept unparsed are reported once each.
 */
export function addToDocument(doc: MutableRegistry, entries: readonly RegistryEntry[], source: string): AddResult {
  const trial = applyAdds(doc.clone(), entries, source);
  if (trial.diagnostics.length > 0) return { diagnostics: trial.diagnostics, appended: [], updated: [], unchanged: [] };
  const done = applyAdds(doc, entries, source);
  return { ...done, diagnostics: keptLineWarnings(doc) };
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

/**
 * Re-reads every line the mutation wrote, as it will be on disk: the message refusing the whole
 * write when one would fail the registry schema, else null. A writer never writes a line
 * `findings validate` rejects (e.g. `cite` on `hit_count: 1e400`: JSON.parse gives Infinity, +1
 * stays Infinity, and JSON.stringify writes `null`).
 */
export function writeRefusal(doc: MutableRegistry): string | null {
  for (const { line, text } of doc.writtenLines()) {
    let problems: string[];
    try {
      problems = entryProblems(JSON.parse(text));
    } catch (error) {
      problems = [error instanceof Error ? error.message : String(error)];
    }
    if (problems.length > 0)
      return `refused to write ${Layout.registry}:${line}, which would not be a valid registry entry: ${schemaMessage(problems)}; nothing written`;
  }
  return null;
}

export interface RetireChange {
  id: string;
  supersededBy?: string;
}

/** `findings retire` on a document: status `retired`, or `superseded` + `superseded_by` (the replacement must exist). */
export function retireInDocument(doc: RegistryDocument, changes: readonly RetireChange[]): Diagnostic[] {
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
}

function unknownId(id: string): Diagnostic {
  return diagnostic({ file: Layout.registry, ruleId: 'registry/unknown-id', message: `unknown finding id "${id}"` });
}

/**
 * `findings cite` on a document: `hit_count + 1` and `last_cited = stamp` (ISO 8601 UTC) for each
 * distinct id (docs/contracts/registry.md#lifecycle-notes). An unknown id → error, nothing changed.
 */
export function citeInDocument(doc: RegistryDocument, ids: readonly string[], stamp: string): Diagnostic[] {
  const distinct = [...new Set(ids)];
  const missing = distinct.filter((id) => !doc.byId(id));
  if (missing.length > 0) return missing.map(unknownId);
  for (const id of distinct) {
    const target = doc.byId(id)!;
    doc.replace(target.line, { ...target.entry, hit_count: target.entry.hit_count + 1, last_cited: stamp });
  }
  return [];
}

/** What a merge leaves: the new text, whether it differs, and why it must not be written (or null). */
export interface MergedText {
  readonly text: string;
  readonly changed: boolean;
  /** Set when a written line would fail the schema: the writer refuses the whole write with it. */
  readonly refusal: string | null;
}

/** A document's text after a mutation, against the file's bytes (`null`: no file yet). */
export function mergedText(doc: MutableRegistry, current: string | null): MergedText {
  const text = doc.text();
  const changed = doc.dirty && (current === null || current !== text);
  return { text, changed, refusal: changed ? writeRefusal(doc) : null };
}

/** `findings add` from text to text: input checks, then `addToDocument`. */
export function mergeAdds(current: string, inputs: readonly unknown[], source: string): AddResult & MergedText {
  const checked = checkAddInputs(inputs, source);
  if (hasErrors(checked.diagnostics)) {
    return { diagnostics: checked.diagnostics, appended: [], updated: [], unchanged: [], text: current, changed: false, refusal: null };
  }
  const doc = new MutableRegistry(current);
  const result = addToDocument(doc, checked.entries, source);
  return { ...result, diagnostics: [...checked.diagnostics, ...result.diagnostics], ...mergedText(doc, current) };
}

/** `findings retire` from text to text. */
export function retireInText(current: string, changes: readonly RetireChange[]): { diagnostics: Diagnostic[] } & MergedText {
  const doc = new MutableRegistry(current);
  const diagnostics = retireInDocument(doc, changes);
  return { diagnostics, ...mergedText(doc, current) };
}

/** `findings cite` from text to text. */
export function citeInText(current: string, ids: readonly string[], stamp: string): { diagnostics: Diagnostic[] } & MergedText {
  const doc = new MutableRegistry(current);
  const diagnostics = citeInDocument(doc, ids, stamp);
  return { diagnostics, ...mergedText(doc, current) };
}
