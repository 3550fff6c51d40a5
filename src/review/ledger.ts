/**
 * The review ledger read side: folding events into findings (pure) and reading ledgers and task
 * files through any RepoFiles source (working tree, index, a pushed commit).
 */
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { isPlainObject, parseJsonDocument } from '../jsonl.js';
import { Layout, reviewLedgerPath, SAFE_ID, taskPath } from '../layout.js';
import { readMany, type RepoFiles } from '../repo-files.js';
import { validate } from '../schema.js';
import { parseLedger, taskOfLedgerPath } from './events.js';
import { shortIdOf } from './ids.js';
import {
  WAIVABLE,
  type AddressedEvent,
  type FiledEvent,
  type FindingBody,
  type FindingStatus,
  type ImportSource,
  type Origin,
  type ResolvedEvent,
  type ReviewEvent,
  type TaskFile,
  type UpdatedEvent,
  type WaivedEvent,
} from './types.js';

export type { ReviewEvent, TaskFile } from './types.js';

/** One finding with its derived status (contract: "The Finding shape" + origin, round, status). */
export interface ReviewFinding extends FindingBody {
  /** Full id (32 hex). */
  id: string;
  /** The 8 characters `[F-xxxxxxxx]` shows. */
  shortId: string;
  task: string;
  origin: Origin;
  round: number;
  status: FindingStatus;
  /** `.agents/reviews/<task>.jsonl` */
  ledgerFile: string;
  /** Line of its `filed` event (0 when the events carry no line). */
  ledgerLine: number;
  /** Position within its round (structured findings first, then legacy issues). */
  index: number;
  filedBy: string | null;
  filedAt: string;
  /** The resolution that made it `addressed` (kept once verified), or null. */
  resolution: { commit: string; note: string | null; actor: string | null; at: string } | null;
  /** The auditor's waiver when status is `waived`, or null. */
  waiver: { note: string; actor: string; at: string } | null;
  /** An imported finding's origin on the forge (docs/import.md), as of its latest `updated` event; null for findings filed here. */
  source: ImportSource | null;
  /** An imported thread's resolution on the forge (status `resolved`), or null. */
  forgeResolution: { actor: string | null; at: string; commit: string | null; note: string | null } | null;
}

/** Canonical pick among events for one finding: earliest `at`, then lowest event id — independent of line order. */
function earlier<T extends ReviewEvent>(a: T | undefined, b: T): T {
  if (a === undefined) return b;
  const c = compareStrings(a.at, b.at) || compareStrings(a.event_id, b.event_id);
  if (c !== 0) return c < 0 ? a : b;
  // Same event id twice (a union merge's duplicate): the same event; keep the first line it appears on.
  return (b.ledgerLine ?? Infinity) < (a.ledgerLine ?? Infinity) ? b : a;
}

/** The newest of two updates: latest `at`, then highest event id — independent of line order. */
function later(a: UpdatedEvent | undefined, b: UpdatedEvent): UpdatedEvent {
  if (a === undefined) return b;
  return (compareStrings(a.at, b.at) || compareStrings(a.event_id, b.event_id)) >= 0 ? a : b;
}

/** Total order of findings: task, round, position in the round, id. */
export function compareFindings(a: ReviewFinding, b: ReviewFinding): number {
  return compareStrings(a.task, b.task) || a.round - b.round || a.index - b.index || compareStrings(a.id, b.id);
}

/**
 * Folds ledger events into findings. Pure and order-independent: the state is a join over the
 * set of events (any verified ⊒ any waived ⊒ any addressed ⊒ filed), so the union of two
 * branches' lines folds to the same state whatever the order, and a duplicate event (same
 * event_id) counts once. Transitions the contract forbids do not count: `verified` without an
 * `addressed`, a waiver of a blocker/major, events naming no filed finding (`findings validate`
 * reports them). An imported finding (its `filed` event has a `source`) takes the finding and source
 * of its newest `updated` event, and a `resolved` event makes it `resolved` (above `waived`, below
 * `verified`); on a finding filed here both are ignored, so a hand-written line cannot close it.
 */
export function foldEvents(events: readonly ReviewEvent[]): ReviewFinding[] {
  const filed = new Map<string, FiledEvent>();
  const addressed = new Map<string, AddressedEvent>();
  const waived = new Map<string, WaivedEvent>();
  const verified = new Set<string>();
  const updated = new Map<string, UpdatedEvent>();
  const resolved = new Map<string, ResolvedEvent>();
  for (const e of events) {
    const key = `${e.task}\0${e.finding_id}`;
    switch (e.type) {
      case 'filed':
        filed.set(key, earlier(filed.get(key), e));
        break;
      case 'addressed':
        addressed.set(key, earlier(addressed.get(key), e));
        break;
      case 'waived':
        waived.set(key, earlier(waived.get(key), e));
        break;
      case 'verified':
        verified.add(key);
        break;
      case 'updated':
        updated.set(key, later(updated.get(key), e));
        break;
      case 'resolved':
        resolved.set(key, earlier(resolved.get(key), e));
        break;
    }
  }
  const out: ReviewFinding[] = [];
  for (const [key, f] of filed) {
    const a = addressed.get(key);
    const w = waived.get(key);
    const imported = f.source !== undefined;
    const u = imported ? updated.get(key) : undefined;
    const r = imported ? resolved.get(key) : undefined;
    const body = u?.finding ?? f.finding;
    const waivable = WAIVABLE.includes(body.severity);
    let status: FindingStatus = 'open';
    if (a && verified.has(key)) status = 'verified';
    else if (r) status = 'resolved';
    else if (w && waivable) status = 'waived';
    else if (a) status = 'addressed';
    out.push({
      id: f.finding_id,
      shortId: shortIdOf(f.finding_id),
      task: f.task,
      origin: f.origin,
      round: f.round,
      severity: body.severity,
      file: body.file ?? null,
      line: body.line ?? null,
      criterion: body.criterion ?? null,
      expected: body.expected,
      actual: body.actual,
      fix: body.fix ?? null,
      evidence: body.evidence ?? null,
      class: body.class ?? null,
      status,
      ledgerFile: reviewLedgerPath(f.task),
      ledgerLine: f.ledgerLine ?? 0,
      index: f.index,
      filedBy: f.actor,
      filedAt: f.at,
      resolution: a ? { commit: a.commit, note: a.note, actor: a.actor, at: a.at } : null,
      waiver: status === 'waived' && w ? { note: w.note, actor: w.actor, at: w.at } : null,
      source: u?.source ?? f.source ?? null,
      forgeResolution: r ? { actor: r.actor, at: r.at, commit: r.commit, note: r.note } : null,
    });
  }
  return out.sort(compareFindings);
}

/** Reads and folds one task's ledger; a missing ledger has no findings. */
export async function readLedger(files: RepoFiles, task: string): Promise<{ findings: ReviewFinding[]; diagnostics: Diagnostic[] }> {
  const { events, diagnostics } = await readLedgerEvents(files, task);
  return { findings: foldEvents(events), diagnostics };
}

/** The parsed events of one task's ledger (bad lines reported, left out). */
export async function readLedgerEvents(
  files: RepoFiles,
  task: string,
): Promise<{ events: ReviewEvent[]; diagnostics: Diagnostic[]; exists: boolean }> {
  const file = reviewLedgerPath(task);
  const data = await files.read(file);
  if (data === null) return { events: [], diagnostics: [], exists: false };
  return { ...parseLedger(data.toString('utf8'), file, task), exists: true };
}

/** Every `.agents/reviews/*.jsonl`, folded; findings sorted by task, round, position, id. */
export async function readAllLedgers(files: RepoFiles): Promise<{ findings: ReviewFinding[]; diagnostics: Diagnostic[] }> {
  const paths = (await files.list(Layout.reviewsDir)).filter((f) => /^\.agents\/reviews\/[^/]+\.jsonl$/.test(f));
  const contents = await readMany(files, paths);
  const findings: ReviewFinding[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of paths) {
    const task = taskOfLedgerPath(file)!;
    if (!SAFE_ID.test(task)) {
      diagnostics.push(diagnostic({ file, ruleId: 'review/task-id', message: `"${task}" is not a valid task id (${SAFE_ID.source})` }));
      continue;
    }
    const data = contents.get(file);
    if (!data) continue;
    const parsed = parseLedger(data.toString('utf8'), file, task);
    diagnostics.push(...parsed.diagnostics);
    findings.push(...foldEvents(parsed.events));
  }
  return { findings: findings.sort(compareFindings), diagnostics };
}

/** Parses a task file's text. Pure. */
export function parseTask(text: string, file: string, expectedId: string | null): { task: TaskFile | null; diagnostics: Diagnostic[] } {
  const doc = parseJsonDocument(text);
  if (!doc.ok)
    return {
      task: null,
      diagnostics: [diagnostic({ file, line: doc.line, column: doc.column, ruleId: 'review/task-invalid-json', message: doc.reason })],
    };
  const raw = doc.value;
  const problems = validate('task', raw);
  const diagnostics = problems.map((message) => diagnostic({ file, line: 1, ruleId: 'review/task-schema', message }));
  if (problems.length === 0 && isPlainObject(raw)) {
    const t = raw as unknown as TaskFile;
    if (expectedId !== null && t.id !== expectedId) {
      diagnostics.push(
        diagnostic({
          file,
          line: 1,
          ruleId: 'review/task-id',
          message: `field "id" is "${t.id}" but the file is named for task "${expectedId}"`,
        }),
      );
    }
    const seen = new Set<string>();
    for (const c of t.criteria) {
      if (seen.has(c.id))
        diagnostics.push(
          diagnostic({
            file,
            line: 1,
            ruleId: 'review/task-duplicate-criterion',
            message: `criterion id "${c.id}" appears more than once`,
          }),
        );
      seen.add(c.id);
    }
    if (diagnostics.length === 0) return { task: t, diagnostics };
  }
  return { task: null, diagnostics };
}

/** Reads `.agents/tasks/<task>.json`, with the reason when it is unusable. */
export async function readTaskChecked(files: RepoFiles, task: string): Promise<{ task: TaskFile | null; diagnostics: Diagnostic[] }> {
  const file = taskPath(task);
  const data = await files.read(file);
  if (data === null) return { task: null, diagnostics: [] };
  return parseTask(data.toString('utf8'), file, task);
}

/** The task's acceptance criteria, or null when the file is missing or invalid. */
export async function readTask(files: RepoFiles, task: string): Promise<TaskFile | null> {
  return (await readTaskChecked(files, task)).task;
}
