/**
 * `findings constraint measure`: replays constraints over the history of HEAD and records
 * samples and distinct hits in `.agents/constraints/measurements/<id>.json` (docs/contracts/compiler.md#replay-qualification:
 * activation cites shadow measurements). One `git log` streams the
 * commits and their changed files, oldest first; one `git cat-file --batch` process reads the
 * blobs a few commits at a time. Neither the log nor the blobs are ever held whole, so memory
 * stays flat whatever the history length (docs/lifecycle.md, "Memory").
 */
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { loadConfig } from '../config.js';
import { resolveCommit } from '../git/core.js';
import { BlobStream } from '../git/blob-stream.js';
import { countCommits, headCommit, streamHistory, uniquePrefixLength, type HistoryCommit, type HistoryRange } from '../git/history.js';
import { Layout, measurementPath } from '../layout.js';
import { worktreeFiles } from '../repo-files.js';
import type { ConstraintEntry } from '../types.js';
import {
  carryLabels,
  labelKey,
  measuredDetectorOf,
  sameDetector,
  summarize,
  verdictOf,
  type Measurement,
  type MeasurementSummary,
  type Verdict,
} from './measurement.js';
import type { ProgressReporter } from '../output/progress.js';
import { BatchBlobs, BlobScreen, DistinctReplay, prepare } from './replay.js';
import { commentAnchors, prevented } from '../import/prevented.js';
import { indexProblem, readIndex, readMeasurement, withCompileLock, writeMeasurement } from './store.js';
import { fileOf } from '../constraints/constraint-set.js';

export interface MeasureOptions {
  /** Constraint ids; empty = every shadow constraint. */
  readonly ids: readonly string[];
  readonly range: HistoryRange;
  /** Told the commits walked and their total after each batch (the CLI passes one on a TTY only). */
  readonly progress?: ProgressReporter;
}

export interface MeasuredConstraint {
  readonly id: string;
  readonly file: string;
  readonly state: 'created' | 'updated' | 'unchanged';
  readonly summary: MeasurementSummary;
  readonly errors: number;
  /** Labelled hits of the previous measurement not found again (their labels are gone). */
  readonly droppedLabels: number;
  /** Labelled hits outside this range kept from the previous measurement (same detector). */
  readonly keptLabels: number;
}

export interface MeasureResult {
  readonly diagnostics: Diagnostic[];
  readonly measured: MeasuredConstraint[];
  readonly commits: number;
  readonly head: string | null;
}

/** Picks the constraints to measure: the named ones (any non-retired), else every shadow one. */
export function selectConstraints(
  constraints: readonly ConstraintEntry[],
  ids: readonly string[],
): { entries: ConstraintEntry[]; diagnostics: Diagnostic[] } {
  if (ids.length === 0) return { entries: constraints.filter((c) => c.status === 'shadow'), diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const entries: ConstraintEntry[] = [];
  for (const id of [...new Set(ids)]) {
    const entry = constraints.find((c) => c.id === id);
    if (!entry) {
      const known = constraints.map((c) => c.id).sort(compareStrings);
      diagnostics.push(
        diagnostic({
          file: Layout.constraintIndex,
          ruleId: 'lifecycle/unknown-constraint',
          message: `no constraint "${id}" in the index${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}`,
        }),
      );
    } else if (entry.status === 'retired') {
      diagnostics.push(
        diagnostic({
          file: Layout.constraintIndex,
          ruleId: 'lifecycle/retired',
          message: `constraint "${id}" is retired; only shadow or active constraints can be measured`,
        }),
      );
    } else {
      entries.push(entry);
    }
  }
  return { entries: entries.sort((a, b) => compareStrings(a.id, b.id)), diagnostics };
}

/**
 * Commits replayed per cat-file round trip, batches read ahead, and the most blobs asked for at
 * once. Memory stays flat: at most MAX_BLOBS_HELD blobs are held (the batch replayed and the ones
 * read ahead; 128 blobs of a 1 MB minified file are 128 MB). Two batches ahead keep git busy
 * through a run of large or deeply deltified blobs, where one ahead left the replay waiting
 * (eslint's history: 10.3 → 9.0 s, the same output). A round trip per 32 commits costs little.
 */
const BATCH_COMMITS = 32;
const READ_AHEAD = 2;
const MAX_BLOBS_HELD = 128;
const BATCH_BLOBS = Math.floor(MAX_BLOBS_HELD / (READ_AHEAD + 1));

/** Labels of a previous measurement by commit, path and line, for the replay to carry to distinct hits. */
function previousLabels(m: Measurement | undefined): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  for (const h of m?.hits ?? []) {
    const v = verdictOf(h);
    if (v !== undefined) out.set(labelKey(h.commit, h.path, h.line), v);
  }
  return out;
}

/**
 * Walks the range oldest first and feeds every replay, reading blobs in small batches. Returns
 * the commit count. Reads READ_AHEAD batches ahead: git reads the next batches' blobs while this
 * one is replayed (the replays keep the verdicts `needed` counted on until the commit is added).
 */
async function walk(
  root: string,
  head: string,
  range: HistoryRange,
  replays: readonly DistinctReplay[],
  watch: { readonly wanted: ReadonlySet<string>; readonly walked: Set<string> },
  tick: (done: number) => void,
): Promise<number> {
  const reader = new BlobStream(root);
  // Replays that search windows find a text without their literals as fast as the screen would.
  const screen = new BlobScreen(replays.filter((r) => !r.searchesWindows).map((r) => r.matcher));
  let done = 0;
  let batch: HistoryCommit[] = [];
  let wanted = new Set<string>();
  interface Job {
    readonly commits: HistoryCommit[];
    readonly blobs: Promise<Map<string, Buffer | null>>;
  }
  const ahead: Job[] = [];
  const replay = async (job: Job): Promise<void> => {
    const blobs = new BatchBlobs(await job.blobs, screen);
    for (const c of job.commits) {
      for (const r of replays) r.add(c, blobs);
      // Let the event loop drain git's pipes between commits: git blocks on a full pipe otherwise,
      // and reading ahead would read no more than the pipe holds.
      await yieldToIo();
    }
    for (const r of replays) r.trim();
    done += job.commits.length;
    tick(done);
  };
  const flush = async (): Promise<void> => {
    const job: Job = { commits: batch, blobs: reader.read([...wanted]) };
    // Awaited later (after the batches before it); a failure meanwhile must not go unhandled.
    job.blobs.catch(() => undefined);
    batch = [];
    wanted = new Set();
    ahead.push(job);
    if (ahead.length > READ_AHEAD) await replay(ahead.shift()!);
  };
  try {
    for await (const commit of streamHistory(root, head, range)) {
      batch.push(commit);
      if (watch.wanted.has(commit.sha)) watch.walked.add(commit.sha);
      for (const r of replays) for (const sha of r.needed(commit)) wanted.add(sha);
      if (batch.length >= BATCH_COMMITS || wanted.size >= BATCH_BLOBS) await flush();
    }
    if (batch.length > 0) await flush();
    for (let job = ahead.shift(); job !== undefined; job = ahead.shift()) await replay(job);
  } finally {
    reader.close();
  }
  return done;
}

/** Measures the selected constraints and writes their measurement files. */
export async function measureConstraints(root: string, options: MeasureOptions): Promise<MeasureResult> {
  const read = await readIndex(root);
  if (read.kind !== 'ok') return { diagnostics: indexProblem(read), measured: [], commits: 0, head: null };
  const { entries, diagnostics } = selectConstraints(read.index.constraints, options.ids);
  if (diagnostics.length > 0 || entries.length === 0) return { diagnostics, measured: [], commits: 0, head: null };

  const head = await headCommit(root);
  const { config, diagnostics: configDiagnostics } = await loadConfig(worktreeFiles(root));
  diagnostics.push(...configDiagnostics);
  const prepared = entries.map((e) => ({ entry: e, prepared: prepare(e) }));
  const replays: { entry: ConstraintEntry; replay: DistinctReplay }[] = [];
  // Which commits of labelled hits the walk covers (carryLabels keeps labels outside the range); not every sha walked.
  const labelledCommits = new Set<string>();
  const walked = new Set<string>();
  for (const p of prepared) {
    if (!p.prepared.ok) {
      diagnostics.push(
        diagnostic({
          file: fileOf(p.entry),
          ruleId: `constraint/${p.entry.id}`,
          message: `cannot be measured: ${p.prepared.problem}`,
        }),
      );
      continue;
    }
    // Labels given on any sighting of a violation (version 1 files had one hit per sighting) carry to its distinct hit.
    const before = await readMeasurement(root, p.entry.id);
    const labels =
      before.kind === 'ok' && sameDetector(before.measurement, measuredDetectorOf(p.entry))
        ? previousLabels(before.measurement)
        : new Map<string, Verdict>();
    replays.push({ entry: p.entry, replay: new DistinctReplay(p.prepared, { budgetMs: config.matchBudgetMs, labels }) });
    if (before.kind === 'ok') for (const h of before.measurement.hits) if (h.label !== undefined) labelledCommits.add(h.commit);
  }

  const total = options.progress ? await countCommits(root, head, options.range) : 0;
  const commitCount = await walk(
    root,
    head,
    options.range,
    replays.map((r) => r.replay),
    { wanted: labelledCommits, walked },
    (done) => options.progress?.update(done, total),
  );
  const prefixLength = uniquePrefixLength(replays.flatMap((r) => r.replay.hitCommits()));
  // streamHistory has already refused a --since that does not resolve.
  const resolvedSince = options.range.since === undefined ? null : await resolveCommit(root, options.range.since);

  // Imported review comments each constraint would have caught (docs/import.md, "Comments prevented").
  const anchors = await commentAnchors(worktreeFiles(root));
  const measured = await withCompileLock(root, async () => {
    const out: MeasuredConstraint[] = [];
    for (const { entry, replay } of replays) {
      const r = replay.result(prefixLength);
      replay.release();
      const fresh: Measurement = {
        version: 2,
        constraint_id: entry.id,
        measured_at_commit: head,
        range: { since: resolvedSince, commits: options.range.commits ?? null },
        commits: commitCount,
        ...measuredDetectorOf(entry),
        samples: r.samples,
        hits: r.hits,
        errors: r.errors,
      };
      const previous = await readMeasurement(root, fresh.constraint_id);
      if (previous.kind === 'invalid') {
        diagnostics.push(
          ...previous.diagnostics.map((d) => ({
            ...d,
            severity: 'warning' as const,
            message: `${d.message}; its labels cannot be carried over and it is replaced`,
          })),
        );
      }
      const before = previous.kind === 'ok' ? previous.measurement : undefined;
      const same = before !== undefined && sameDetector(before, fresh);
      const carried = carryLabels(fresh.hits, before?.hits, { measuredCommits: walked, sameDetector: same, absorbed: r.absorbed });
      const m: Measurement = {
        ...fresh,
        hits: carried.hits,
        ...(anchors.length > 0 ? { comments_prevented: prevented(carried.hits, anchors) } : {}),
      };
      const state = await writeMeasurement(root, m);
      if (carried.dropped > 0) {
        const why = same ? 'were not found again in the commits measured' : 'were not found again with the changed detector or applies_to';
        diagnostics.push(
          diagnostic({
            file: measurementPath(m.constraint_id),
            severity: 'warning',
            ruleId: 'lifecycle/labels-dropped',
            message: `${carried.dropped} labelled hit(s) of the previous measurement ${why}; their labels were dropped`,
          }),
        );
      }
      out.push({
        id: m.constraint_id,
        file: measurementPath(m.constraint_id),
        state,
        summary: summarize(m),
        errors: m.errors.length,
        droppedLabels: carried.dropped,
        keptLabels: carried.keptOutOfRange,
      });
    }
    return out;
  });
  return { diagnostics, measured, commits: commitCount, head };
}
