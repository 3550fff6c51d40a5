/**
 * `findings constraint label <id> <hit-id>… --true-positive|--false-positive` and
 * `label <id> --from <file|->`: a person's verdict on measured hits; precision = true positives /
 * labelled hits (docs/lifecycle.md).
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { measurementPath } from '../layout.js';
import { summarize, withVerdict, type HitLabel, type Measurement, type MeasurementSummary, type Verdict } from './measurement.js';
import { readIndex, readMeasurement, withCompileLock, writeMeasurement } from './store.js';
import { formatRatio, meetsPrecision } from './activate.js';
import { loadConfig } from '../config.js';
import { worktreeFiles } from '../repo-files.js';

/** A verdict for one hit id; `null` removes the label (undo). */
export interface HitVerdict {
  readonly id: string;
  readonly verdict: Verdict | null;
}

/** Applies verdicts to hits (the last one for an id wins). Unknown ids are reported; the known ones still get theirs. Pure. */
export function applyVerdicts(
  m: Measurement,
  verdicts: readonly HitVerdict[],
): { measurement: Measurement; changed: number; unknown: string[] } {
  const wanted = new Map(verdicts.map((v) => [v.id, v.verdict]));
  const known = new Set(m.hits.map((h) => h.id));
  let changed = 0;
  const hits = m.hits.map((h) => {
    if (!wanted.has(h.id)) return h;
    const next = withVerdict(h, wanted.get(h.id) ?? undefined);
    if (next.label === h.label && next.note === h.note) return h;
    changed += 1;
    return next;
  });
  return { measurement: { ...m, hits }, changed, unknown: [...wanted.keys()].filter((id) => !known.has(id)) };
}

/** Applies one label to the named hits (their notes go). Pure. */
export function applyLabels(
  m: Measurement,
  hitIds: readonly string[],
  label: HitLabel,
): { measurement: Measurement; changed: number; unknown: string[] } {
  return applyVerdicts(
    m,
    hitIds.map((id) => ({ id, verdict: { label } })),
  );
}

export interface LabelResult {
  readonly diagnostics: Diagnostic[];
  readonly changed: number;
  readonly summary: MeasurementSummary | null;
}

/** Labels hits of a constraint's measurement under compile.lock. */
export function labelHits(root: string, id: string, hitIds: readonly string[], label: HitLabel): Promise<LabelResult> {
  return applyHitVerdicts(
    root,
    id,
    hitIds.map((h) => ({ id: h, verdict: { label } })),
  );
}

/** Applies verdicts (labels with notes, or removals) to a constraint's measurement under compile.lock: one atomic write. */
export async function applyHitVerdicts(root: string, id: string, verdicts: readonly HitVerdict[]): Promise<LabelResult> {
  const file = measurementPath(id);
  return withCompileLock(root, async () => {
    const read = await readMeasurement(root, id);
    if (read.kind === 'missing') {
      return {
        diagnostics: [
          diagnostic({
            file,
            ruleId: 'lifecycle/no-measurement',
            message: `there is no measurement for ${id}; run \`findings constraint measure ${id}\` first`,
          }),
        ],
        changed: 0,
        summary: null,
      };
    }
    if (read.kind === 'invalid') return { diagnostics: [...read.diagnostics], changed: 0, summary: null };
    const r = applyVerdicts(read.measurement, verdicts);
    const diagnostics = r.unknown.map((h) =>
      diagnostic({
        file,
        ruleId: 'lifecycle/unknown-hit',
        message: `no hit "${h}" in the measurement of ${id} (hit ids look like <commit8>:<path>:<line>)`,
      }),
    );
    if (r.changed > 0) await writeMeasurement(root, r.measurement);
    const summary = summarize(r.measurement);
    diagnostics.push(...(await belowTheBar(root, id, summary)));
    return { diagnostics, changed: r.changed, summary };
  });
}

/**
 * Labels given after activation can take an active constraint below the bar it was activated at.
 * The index keeps the measurement it was activated with (its evidence); this says so, and what to do.
 */
async function belowTheBar(root: string, id: string, s: MeasurementSummary): Promise<Diagnostic[]> {
  const index = await readIndex(root);
  if (index.kind !== 'ok') return [];
  const entry = index.index.constraints.find((c) => c.id === id);
  if (entry?.status !== 'active' || s.labelled === 0) return [];
  const { config } = await loadConfig(worktreeFiles(root));
  if (meetsPrecision(s.true_positives, s.labelled, config.minPrecision)) return [];
  return [
    diagnostic({
      file: measurementPath(id),
      severity: 'warning',
      ruleId: 'lifecycle/active-below-precision',
      message:
        `${id} is active but its labelled hits now give precision ${formatRatio(s.precision)} < ${formatRatio(config.minPrecision)} ` +
        `(${s.true_positives} of ${s.labelled} true); retire it (\`findings constraint retire ${id}\`) or review the labels`,
    }),
  ];
}
