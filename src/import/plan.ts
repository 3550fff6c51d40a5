/**
 * What an import appends to one task's ledger (docs/import.md, "Importing again"). Pure: the
 * task's findings as folded now and the export's threads in, events out. A thread seen for the
 * first time is `filed` (with `resolved` when the forge resolved it, or `addressed` when a commit
 * of the history applied its suggestion); a thread already there gets an `updated` event only when
 * its finding or origin changed (an edit, a reply, a new class), never from an older export; a
 * resolution is recorded once. The same export imported twice appends nothing the second time.
 */
import { compareStrings } from '../diagnostics.js';
import { stableLine } from '../json-stable.js';
import { hashId } from '../review/ids.js';
import type { ReviewFinding } from '../review/ledger.js';
import { nextRound } from '../review/producer.js';
import type { AddressedEvent, FiledEvent, FindingBody, ImportSource, ResolvedEvent, ReviewEvent, UpdatedEvent } from '../review/types.js';
import type { MappedThread } from './map.js';

/** A thread ready to record: mapped, classified, and the commit that applied its suggestion (if found). */
export interface ReadyThread extends MappedThread {
  readonly appliedCommit: string | null;
}

export interface TaskPlan {
  readonly events: ReviewEvent[];
  readonly filed: number;
  readonly updated: number;
  readonly resolved: number;
  readonly unchanged: number;
  /** Threads older than what the ledger holds (an older export): nothing recorded for them. */
  readonly older: number;
}

const sameContent = (a: { finding: FindingBody; source: ImportSource }, b: { finding: FindingBody; source: ImportSource }): boolean =>
  stableLine(a) === stableLine(b);

/** One second after `at` (ISO 8601, to the second). */
function secondAfter(at: string): string {
  return `${new Date(Date.parse(at) + 1000).toISOString().slice(0, 19)}Z`;
}

/** Plans one task's events. `existing` is the task's folded findings; `latestUpdateAt` their newest `updated` event time by finding id. */
export function planTask(
  task: string,
  threads: readonly ReadyThread[],
  existing: readonly ReviewFinding[],
  latestUpdateAt: ReadonlyMap<string, string>,
): TaskPlan {
  const byId = new Map(existing.map((f) => [f.id, f]));
  const events: ReviewEvent[] = [];
  let filed = 0;
  let updated = 0;
  let resolved = 0;
  let unchanged = 0;
  let older = 0;
  const fresh = threads
    .filter((t) => !byId.has(t.findingId))
    .sort((a, b) => compareStrings(a.source.created_at, b.source.created_at) || compareStrings(a.source.thread, b.source.thread));
  const round = nextRound(existing);
  fresh.forEach((t, index) => {
    const event: Omit<FiledEvent, 'event_id'> = {
      type: 'filed',
      task,
      finding_id: t.findingId,
      origin: 'pr_gate',
      round,
      index,
      actor: t.source.author,
      at: t.source.created_at,
      finding: t.body,
      source: t.source,
    };
    events.push({ event_id: hashId(event), ...event });
    filed++;
    events.push(...closing(task, t, null));
    if (t.resolved === true) resolved++;
  });
  for (const t of threads) {
    const f = byId.get(t.findingId);
    if (f === undefined) continue;
    const recorded = { finding: bodyOf(f), source: f.source! };
    if (f.source === null) {
      // A finding filed here by hand with an imported thread's id: leave it alone.
      unchanged++;
      continue;
    }
    let changed = false;
    if (t.source.updated_at < f.source.updated_at) older++;
    else if (!sameContent(recorded, { finding: t.body, source: t.source })) {
      const last = latestUpdateAt.get(f.id);
      // An update must be the newest (the fold keeps the latest `at`): a re-classification of an
      // unchanged thread is dated one second after the previous update.
      const at = last !== undefined && t.source.updated_at <= last ? secondAfter(last) : t.source.updated_at;
      const event: Omit<UpdatedEvent, 'event_id'> = {
        type: 'updated',
        task,
        finding_id: f.id,
        actor: t.source.author,
        at,
        finding: t.body,
        source: t.source,
      };
      events.push({ event_id: hashId(event), ...event });
      updated++;
      changed = true;
    }
    const closes = closing(task, t, f);
    if (closes.some((e) => e.type === 'resolved')) resolved++;
    events.push(...closes);
    if (!changed && closes.length === 0) unchanged++;
  }
  return { events, filed, updated, resolved, unchanged, older };
}

/** A folded finding's body, as a filed or updated event holds it. */
function bodyOf(f: ReviewFinding): FindingBody {
  return {
    file: f.file,
    line: f.line,
    severity: f.severity,
    criterion: f.criterion,
    expected: f.expected,
    actual: f.actual,
    fix: f.fix,
    evidence: f.evidence,
    class: f.class,
  };
}

/** The `resolved` (forge resolution) or `addressed` (an applied suggestion) event a thread still needs. */
function closing(task: string, t: ReadyThread, f: ReviewFinding | null): ReviewEvent[] {
  if (t.resolved === true && f?.forgeResolution == null) {
    const event: Omit<ResolvedEvent, 'event_id'> = {
      type: 'resolved',
      task,
      finding_id: t.findingId,
      actor: t.resolvedBy,
      at: t.resolvedAt ?? t.source.updated_at,
      commit: t.appliedCommit,
      note: t.appliedCommit === null ? null : `the suggestion was applied in ${t.appliedCommit.slice(0, 12)}`,
    };
    return [{ event_id: hashId(event), ...event }];
  }
  if (t.resolved !== true && t.appliedCommit !== null && (f === null || (f.resolution === null && f.forgeResolution === null))) {
    const event: Omit<AddressedEvent, 'event_id'> = {
      type: 'addressed',
      task,
      finding_id: t.findingId,
      commit: t.appliedCommit,
      note: "the reviewer's suggestion was applied in this commit",
      actor: null,
      at: t.source.updated_at,
    };
    return [{ event_id: hashId(event), ...event }];
  }
  return [];
}
