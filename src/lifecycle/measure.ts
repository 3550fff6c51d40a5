/**
 * `findings constraint measure`: replays constraints over the history of HEAD and records
 * samples and hits in `.agents/constraints/measurements/<id>.json` (finding-compiler.md,
 * "Replay qualification": activation cites shadow measurements). One `git log` lists the
 * commits and their changed files; one `git cat-file --batch` reads every blob they need.
 */
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { loadConfig } from '../config.js';
import { readObjects, resolveCommit } from '../git.js';
import { headCommit, historyCommits, uniquePrefixLength, type HistoryRange } from '../git-history.js';
import { Layout, measurementPath } from '../layout.js';
import { worktreeFiles } from '../repo-files.js';
import type { ConstraintEntry } from '../types.js';
import { carryLabels, measuredDetectorOf, sameDetector, summarize, type Measurement, type MeasurementSummary } from './measurement.js';
import { blobsToRead, prepare, replay } from './replay.js';
import { indexProblem, readIndex, readMeasurement, withCompileLock, writeMeasurement } from './store.js';

export interface MeasureOptions {
  /** Constraint ids; empty = every shadow constraint. */
  readonly ids: readonly string[];
  readonly range: HistoryRange;
  /** Progress callback (the CLI shows it on a TTY only). */
  readonly onProgress?: (message: string) => void;
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
export function selectConstraints(constraints: readonly ConstraintEntry[], ids: readonly string[]): { entries: ConstraintEntry[]; diagnostics: Diagnostic[] } {
  if (ids.length === 0) return { entries: constraints.filter((c) => c.status === 'shadow'), diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const entries: ConstraintEntry[] = [];
  for (const id of [...new Set(ids)]) {
    const entry = constraints.find((c) => c.id === id);
    if (!entry) {
      const known = constraints.map((c) => c.id).sort(compareStrings);
      diagnostics.push(diagnostic({ file: Layout.constraintIndex, ruleId: 'lifecycle/unknown-constraint', message: `no constraint "${id}" in the index${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}` }));
    } else if (entry.status === 'retired') {
      diagnostics.push(diagnostic({ file: Layout.constraintIndex, ruleId: 'lifecycle/retired', message: `constraint "${id}" is retired; only shadow or active constraints can be measured` }));
    } else {
      entries.push(entry);
    }
  }
  return { entries: entries.sort((a, b) => compareStrings(a.id, b.id)), diagnostics };
}

/** Measures the selected constraints and writes their measurement files. */
export async function measureConstraints(root: string, options: MeasureOptions): Promise<MeasureResult> {
  const progress = options.onProgress ?? (() => undefined);
  const read = await readIndex(root);
  if (read.kind !== 'ok') return { diagnostics: indexProblem(read), measured: [], commits: 0, head: null };
  const { entries, diagnostics } = selectConstraints(read.index.constraints, options.ids);
  if (diagnostics.length > 0 || entries.length === 0) return { diagnostics, measured: [], commits: 0, head: null };

  const head = await headCommit(root);
  const { config, diagnostics: configDiagnostics } = await loadConfig(worktreeFiles(root));
  diagnostics.push(...configDiagnostics);
  progress('reading history…');
  const commits = await historyCommits(root, head, options.range);
  const prepared = entries.map((e) => ({ entry: e, prepared: prepare(e) }));
  for (const p of prepared) {
    if (!p.prepared.ok) diagnostics.push(diagnostic({ file: Layout.constraintIndex, ruleId: `constraint/${p.entry.id}`, message: `cannot be measured: ${p.prepared.problem}` }));
  }
  const wanted = blobsToRead(prepared.map((p) => p.prepared), commits);
  progress(`reading ${wanted.length} file versions from ${commits.length} commits…`);
  const blobs = await readObjects(root, wanted);
  const prefixLength = uniquePrefixLength(commits.map((c) => c.sha));

  const measurements: Measurement[] = [];
  prepared.forEach((p, i) => {
    if (!p.prepared.ok) return;
    progress(`measuring ${p.entry.id} (${i + 1}/${prepared.length})…`);
    const r = replay(p.prepared, commits, blobs, { prefixLength, budgetMs: config.matchBudgetMs });
    measurements.push({
      version: 1,
      constraint_id: p.entry.id,
      measured_at_commit: head,
      range: { since: null, commits: options.range.commits ?? null },
      commits: commits.length,
      ...measuredDetectorOf(p.entry),
      samples: r.samples,
      hits: r.hits,
      errors: r.errors,
    });
  });
  // historyCommits has already refused a --since that does not resolve.
  const resolvedSince = options.range.since === undefined ? null : await resolveCommit(root, options.range.since);

  const measuredCommits = new Set(commits.map((c) => c.sha));
  const measured = await withCompileLock(root, async () => {
    const out: MeasuredConstraint[] = [];
    for (const fresh of measurements) {
      const previous = await readMeasurement(root, fresh.constraint_id);
      if (previous.kind === 'invalid') {
        diagnostics.push(...previous.diagnostics.map((d) => ({ ...d, severity: 'warning' as const, message: `${d.message}; its labels cannot be carried over and it is replaced` })));
      }
      const before = previous.kind === 'ok' ? previous.measurement : undefined;
      const same = before !== undefined && sameDetector(before, fresh);
      const carried = carryLabels(fresh.hits, before?.hits, { measuredCommits, sameDetector: same });
      const m: Measurement = { ...fresh, range: { ...fresh.range, since: resolvedSince }, hits: carried.hits };
      const state = await writeMeasurement(root, m);
      if (carried.dropped > 0) {
        const why = same ? 'were not found again in the commits measured' : 'were not found again with the changed detector or applies_to';
        diagnostics.push(diagnostic({ file: measurementPath(m.constraint_id), severity: 'warning', ruleId: 'lifecycle/labels-dropped', message: `${carried.dropped} labelled hit(s) of the previous measurement ${why}; their labels were dropped` }));
      }
      out.push({ id: m.constraint_id, file: measurementPath(m.constraint_id), state, summary: summarize(m), errors: m.errors.length, droppedLabels: carried.dropped, keptLabels: carried.keptOutOfRange });
    }
    return out;
  });
  return { diagnostics, measured, commits: commits.length, head };
}
