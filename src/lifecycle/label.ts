/**
 * `findings constraint label <id> <hit-id>… --true-positive|--false-positive`: a person's verdict
 * on measured hits; precision = true positives / labelled hits (docs/lifecycle.md).
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { measurementPath } from '../layout.js';
import { summarize, type HitLabel, type Measurement, type MeasurementSummary } from './measurement.js';
import { readIndex, readMeasurement, withCompileLock, writeMeasurement } from './store.js';
import { formatRatio, meetsPrecision } from './activate.js';
import { loadConfig } from '../config.js';
import { worktreeFiles } from '../repo-files.js';

/** Applies a label to the named hits. Unknown ids are reported; the known ones still get the label. Pure. */
export function applyLabels(m: Measurement, hitIds: readonly string[], label: HitLabel): { measurement: Measurement; changed: number; unknown: string[] } {
  const wanted = new Set(hitIds);
  const known = new Set(m.hits.map((h) => h.id));
  let changed = 0;
  const hits = m.hits.map((h) => {
    if (!wanted.has(h.id) || h.label === label) return h;
    changed += 1;
    return { ...h, label };
  });
  return { measurement: { ...m, hits }, changed, unknown: [...wanted].filter((id) => !known.has(id)) };
}

export interface LabelResult {
  readonly diagnostics: Diagnostic[];
  readonly changed: number;
  readonly summary: MeasurementSummary | null;
}

/** Labels hits of a constraint's measurement under compile.lock. */
export async function labelHits(root: string, id: string, hitIds: readonly string[], label: HitLabel): Promise<LabelResult> {
  const file = measurementPath(id);
  return withCompileLock(root, async () => {
    const read = await readMeasurement(root, id);
    if (read.kind === 'missing') {
      return { diagnostics: [diagnostic({ file, ruleId: 'lifecycle/no-measurement', message: `there is no measurement for ${id}; run \`findings constraint measure ${id}\` first` })], changed: 0, summary: null };
    }
    if (read.kind === 'invalid') return { diagnostics: [...read.diagnostics], changed: 0, summary: null };
    const r = applyLabels(read.measurement, hitIds, label);
    const diagnostics = r.unknown.map((h) => diagnostic({ file, ruleId: 'lifecycle/unknown-hit', message: `no hit "${h}" in the measurement of ${id} (hit ids look like <commit8>:<path>:<line>)` }));
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
      message: `${id} is active but its labelled hits now give precision ${formatRatio(s.precision)} < ${formatRatio(config.minPrecision)} (${s.true_positives} of ${s.labelled} true); retire it (\`findings constraint retire ${id}\`) or review the labels`,
    }),
  ];
}
