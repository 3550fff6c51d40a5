/**
 * `findings constraint activate <id>` (docs/contracts/compiler.md#lifecycle: activation accepts only
 * precision-backed shadows; "Replay qualification": at least 95% precision over cited shadow
 * measurements and zero existing violations). Every refusal names the condition and by how much.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { loadConfig, type Config } from '../config.js';
import { resolveCommit } from '../git/core.js';
import { Layout, measurementPath } from '../layout.js';
import { worktreeFiles } from '../repo-files.js';
import type { ConstraintEntry, ShadowMeasurement } from '../types.js';
import type { TreeScan } from './current-tree.js';
import { scanTree } from './current-tree.js';
import { matchBaseline } from './baseline-file.js';
import { readBaselineFile } from './baseline.js';
import { isStale, shadowMeasurementOf, summarize } from './measurement.js';
import { prepare } from './replay.js';
import { formatInterval } from './wilson.js';
import { indexProblem, mutateIndexLocked, readIndex, readMeasurement, withCompileLock, type MeasurementRead } from './store.js';
import { enforcementFor } from '../constraints/index-file.js';
import { flatEvidence } from '../constraints/shape.js';
import { fileOf } from '../constraints/constraint-set.js';

/** A ratio for messages (2–4 decimals), rounded down so a value below a threshold never prints as equal to it. */
export function formatRatio(x: number): string {
  const floored = Math.floor(x * 10_000 + 1e-9) / 10_000;
  const s = floored.toFixed(4).replace(/0+$/, '');
  return s.length - s.indexOf('.') - 1 < 2 ? floored.toFixed(2) : s;
}

/** True when tp / labelled ≥ min, without floating-point surprises at the boundary. */
export function meetsPrecision(tp: number, labelled: number, min: number): boolean {
  return labelled > 0 && tp >= min * labelled - 1e-9;
}

/** The first N current-tree violations listed one by one; the rest are counted. */
const LISTED_VIOLATIONS = 20;

/**
 * Why a constraint may not be activated (empty = it may). Pure. `scan` holds only the violations
 * its baseline does not cover; `baselined` counts those it does (docs/lifecycle.md, "Baseline").
 */
export function activationRefusals(
  entry: ConstraintEntry,
  measurement: MeasurementRead,
  scan: TreeScan | null,
  config: Config,
  head: string | null,
  baselined = 0,
): Diagnostic[] {
  const file = measurementPath(entry.id);
  const out: Diagnostic[] = [];
  const refuse = (rule: string, message: string, at: { file?: string; line?: number; column?: number } = {}): void => {
    out.push(
      diagnostic({
        file: at.file ?? file,
        line: at.line ?? 0,
        column: at.column ?? 0,
        ruleId: `lifecycle/${rule}`,
        message: `cannot activate ${entry.id}: ${message}`,
      }),
    );
  };
  if (entry.status !== 'shadow')
    refuse('not-shadow', `its status is "${entry.status}"; only shadow constraints can be activated`, { file: fileOf(entry) });
  if (measurement.kind === 'missing') {
    refuse('no-measurement', `there is no measurement (${file}); run \`findings constraint measure ${entry.id}\` and label its hits`);
  } else if (measurement.kind === 'invalid') {
    out.push(...measurement.diagnostics);
  } else {
    const m = measurement.measurement;
    if (isStale(entry, m))
      refuse(
        'stale-measurement',
        `the detector or applies_to changed since the measurement ` +
          `at ${m.measured_at_commit.slice(0, 8)}; run \`findings constraint measure ${entry.id}\` again`,
      );
    const s = summarize(m);
    if (s.labelled < config.minLabelledHits) {
      const unlabelled = s.hits - s.labelled;
      refuse(
        'too-few-labels',
        `${s.labelled} labelled hit(s) < ${config.minLabelledHits} required ` +
          `(${config.minLabelledHits - s.labelled} more needed; ${unlabelled} hit(s) unlabelled)`,
      );
    }
    if (s.labelled > 0 && !meetsPrecision(s.true_positives, s.labelled, config.minPrecision)) {
      refuse(
        'low-precision',
        `precision ${formatRatio(s.precision)} (${formatInterval(s.true_positives, s.labelled)}) ` +
          `< ${formatRatio(config.minPrecision)} (${s.true_positives} of ${s.labelled} labelled hits true)`,
      );
    }
  }
  if (scan !== null) {
    const where = head === null ? 'HEAD' : `HEAD ${head.slice(0, 8)}`;
    if (scan.violations.length > 0) {
      const files = new Set(scan.violations.map((v) => v.path)).size;
      const inBaseline = baselined > 0 ? ` not in its baseline (${baselined} baselined)` : '';
      refuse(
        'current-violations',
        `${scan.violations.length} violation(s) in ${files} file(s) of the current tree (${where})${inBaseline} > 0 allowed`,
        { file: fileOf(entry) },
      );
      for (const v of scan.violations.slice(0, LISTED_VIOLATIONS)) {
        refuse('current-violations', `existing violation at ${where}`, { file: v.path, line: v.line, column: v.column });
      }
    }
    for (const e of scan.errors)
      refuse('current-evaluation-error', `${e.message} at ${where} (an active constraint fails closed here)`, { file: e.path, line: 1 });
  }
  return out;
}

export interface ActivateResult {
  readonly diagnostics: Diagnostic[];
  readonly activated: boolean;
  readonly evidence?: ShadowMeasurement;
}

/** Checks every condition under compile.lock and, when all hold, makes the entry active + block. */
export async function activateConstraint(root: string, id: string): Promise<ActivateResult> {
  const { config, diagnostics } = await loadConfig(worktreeFiles(root));
  // Everything is read and checked under the lock, so no compile can change the entry in between.
  return withCompileLock(root, async () => {
    const read = await readIndex(root);
    if (read.kind !== 'ok') return { diagnostics: indexProblem(read), activated: false };
    const entry = read.index.constraints.find((c) => c.id === id);
    if (!entry) {
      return {
        diagnostics: [
          diagnostic({
            file: Layout.constraintIndex,
            ruleId: 'lifecycle/unknown-constraint',
            message: `no constraint "${id}" in the index`,
          }),
        ],
        activated: false,
      };
    }
    const head = await resolveCommit(root, 'HEAD');
    const measurement = await readMeasurement(root, id);
    const refusals: Diagnostic[] = [];
    const prepared = prepare(entry);
    let scan: TreeScan | null = null;
    let baselined = 0;
    if (!prepared.ok) {
      refusals.push(
        diagnostic({
          file: fileOf(entry),
          ruleId: 'lifecycle/unusable-detector',
          message: `cannot activate ${id}: ${prepared.problem}`,
        }),
      );
    } else if (entry.status === 'shadow' && head !== null) {
      scan = await scanTree(root, head, prepared, config.matchBudgetMs);
      // Only violations the baseline does not record count (an unreadable baseline records none).
      const baseline = await readBaselineFile(root, id);
      if (baseline !== null && !baseline.ok) refusals.push(...baseline.diagnostics);
      else if (baseline !== null) {
        const split = matchBaseline(baseline.baseline, scan.violations);
        baselined = split.baselined.length;
        scan = { ...scan, violations: split.fresh };
      }
    }
    refusals.push(...activationRefusals(entry, measurement, scan, config, head, baselined));
    if (refusals.length > 0 || measurement.kind !== 'ok') return { diagnostics: [...diagnostics, ...refusals], activated: false };
    const evidence = shadowMeasurementOf(measurement.measurement);
    const active: ConstraintEntry = {
      ...entry,
      status: 'active',
      enforcement_mode: enforcementFor('active'),
      evidence: { ...entry.evidence, ...flatEvidence({ ...evidence, evidence_ref: measurement.ref ?? evidence.evidence_ref }) },
    };
    await mutateIndexLocked(root, (index) => ({
      index: { ...index, constraints: index.constraints.map((c) => (c.id === id ? active : c)) },
      result: undefined,
    }));
    return { diagnostics, activated: true, evidence };
  });
}
