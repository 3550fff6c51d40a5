/**
 * `.agents/constraints/measurements/<id>.json`: what replaying a shadow constraint over history
 * found, and the labels a person gave its hits (docs/contracts/compiler.md#replay-qualification:
 * activation needs cited shadow measurements — samples, true and false positives, an evidence
 * reference). Pure: parse (a version 1 file is converted), serialize, merge labels, summarise.
 */
import { parseJsonDocument } from '../jsonl.js';
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { stableLine, stableStringify } from '../json-stable.js';
import { measurementPath } from '../layout.js';
import { validate } from '../schema.js';
import type { CommentsPrevented } from '../import/prevented.js';
import { APPLIES_TO_KEY_ORDER, DETECTOR_KEY_ORDER, type ConstraintEntry, type ShadowMeasurement } from '../types.js';

export type HitLabel = 'true_positive' | 'false_positive';

export interface MeasuredHit {
  /** `<commit8>:<path>:<line>` (the commit prefix grows past 8 only if two commits share it). */
  readonly id: string;
  readonly commit: string;
  readonly path: string;
  readonly line: number;
  /** Later commits of the range that changed the file with this violation still present. */
  readonly seen: number;
  readonly label?: HitLabel;
  /** A person's note given with the label (`label --from`, docs/lifecycle.md). */
  readonly note?: string;
}

/** A label and its optional note, as carried from one measurement to the next. */
export interface Verdict {
  readonly label: HitLabel;
  readonly note?: string;
}

/** The verdict of a hit, or undefined when unlabelled. */
export function verdictOf(h: MeasuredHit): Verdict | undefined {
  if (h.label === undefined) return undefined;
  return h.note === undefined ? { label: h.label } : { label: h.label, note: h.note };
}

/** A hit with the given verdict (none = unlabelled). */
export function withVerdict(h: MeasuredHit, v: Verdict | undefined): MeasuredHit {
  return {
    id: h.id,
    commit: h.commit,
    path: h.path,
    line: h.line,
    seen: h.seen,
    ...(v ? { label: v.label, ...(v.note !== undefined ? { note: v.note } : {}) } : {}),
  };
}

export interface EvaluationError {
  readonly commit: string;
  readonly path: string;
  readonly message: string;
}

/** What was replayed: a change here makes the measurement stale for activation. */
export interface MeasuredDetector {
  readonly detector: ConstraintEntry['detector'];
  readonly applies_to: ConstraintEntry['applies_to'];
}

export interface Measurement extends MeasuredDetector {
  /** 2: distinct hits (docs/lifecycle.md); version 1 files are converted when read. */
  readonly version: 2;
  readonly constraint_id: string;
  readonly measured_at_commit: string;
  readonly range: { readonly since: string | null; readonly commits: number | null };
  /** Commits walked. */
  readonly commits: number;
  /** Commit × file pairs evaluated. */
  readonly samples: number;
  readonly hits: readonly MeasuredHit[];
  readonly errors: readonly EvaluationError[];
  /** The imported review comments it would have caught (docs/import.md); absent when none were imported. */
  readonly comments_prevented?: CommentsPrevented;
}

export const MEASUREMENT_KEY_ORDER = [
  'version',
  'constraint_id',
  'measured_at_commit',
  'range',
  'since',
  'commits',
  'detector',
  ...DETECTOR_KEY_ORDER,
  'applies_to',
  ...APPLIES_TO_KEY_ORDER,
  'samples',
  'hits',
  'errors',
  'id',
  'commit',
  'path',
  'line',
  'seen',
  'label',
  'note',
] as const;

const compareHits = (a: MeasuredHit, b: MeasuredHit): number => compareStrings(a.id, b.id);
const compareErrors = (a: EvaluationError, b: EvaluationError): number =>
  compareStrings(a.commit, b.commit) || compareStrings(a.path, b.path);

/** The key order stableStringify gives a hit under MEASUREMENT_KEY_ORDER, found once. */
const HIT_KEYS = Object.keys(
  JSON.parse(
    stableLine(
      { id: 0, commit: 0, path: 0, line: 0, seen: 0, label: 0, note: 0 } satisfies Record<keyof MeasuredHit, 0>,
      MEASUREMENT_KEY_ORDER,
    ),
  ),
) as (keyof MeasuredHit)[];

/**
 * Canonical bytes: fixed key order, hits sorted by id, errors by commit and path. The same bytes
 * as stableStringify of the whole measurement, but each hit is copied once in key order instead of
 * re-ranking its keys (tens of thousands of hits on a long history).
 */
export function serializeMeasurement(m: Measurement): string {
  const doc = JSON.parse(stableLine({ ...m, hits: [], errors: [...m.errors].sort(compareErrors) }, MEASUREMENT_KEY_ORDER)) as Record<
    string,
    unknown
  >;
  doc.hits = [...m.hits].sort(compareHits).map((h) => {
    const out: Record<string, unknown> = {};
    for (const k of HIT_KEYS) if (h[k] !== undefined) out[k] = h[k];
    return out;
  });
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export type MeasurementParse =
  | { readonly ok: true; readonly measurement: Measurement }
  | { readonly ok: false; readonly diagnostics: Diagnostic[] };

/** Parses and schema-checks a measurement file's text. Pure. */
export function parseMeasurement(text: string, file: string): MeasurementParse {
  const doc = parseJsonDocument(text);
  if (!doc.ok)
    return {
      ok: false,
      diagnostics: [diagnostic({ file, line: doc.line, column: doc.column, ruleId: 'measurement/invalid-json', message: doc.reason })],
    };
  const value = doc.value;
  const problems = validate('measurement', value);
  if (problems.length > 0)
    return { ok: false, diagnostics: problems.map((message) => diagnostic({ file, line: 1, ruleId: 'measurement/schema', message })) };
  return { ok: true, measurement: fromVersion1(value as Measurement | MeasurementV1) };
}

/** The version 1 shape: one hit per commit that changed the file, no `seen`. */
interface MeasurementV1 extends Omit<Measurement, 'version' | 'hits'> {
  readonly version: 1;
  readonly hits: readonly Omit<MeasuredHit, 'seen'>[];
}

/**
 * Reads a version 1 measurement as version 2: its hits keep their ids and labels with `seen: 0`.
 * They are not yet distinct (a violation may appear once per commit that touched its file) until
 * the next `measure`, which folds each labelled one into the distinct hit it is a sighting of.
 */
function fromVersion1(m: Measurement | MeasurementV1): Measurement {
  if (m.version === 2) return m;
  return { ...m, version: 2, hits: m.hits.map((h) => withVerdict({ ...h, seen: 0 }, verdictOf({ ...h, seen: 0 }))) };
}

/** What a re-measurement knows about the range it walked and the previous measurement. */
export interface CarryContext {
  /** Full shas of the commits the new measurement walked. */
  readonly measuredCommits: ReadonlySet<string>;
  /** True when the previous measurement replayed the same detector and applies_to. */
  readonly sameDetector: boolean;
  /** Previous labels (by commit, path, line) the replay already put on a distinct hit. */
  readonly absorbed?: ReadonlySet<string>;
}

export interface CarriedLabels {
  readonly hits: MeasuredHit[];
  /** Labelled hits of the previous measurement that are gone (their labels with them). */
  readonly dropped: number;
  /** Labelled hits outside the new range kept as they were (same detector: still facts). */
  readonly keptOutOfRange: number;
}

/** Identity of a hit across measurements: commit, path and line (ids may change prefix length). */
export const labelKey = (commit: string, path: string, line: number): string => `${commit}\u0000${path}\u0000${line}`;
const hitKey = (h: MeasuredHit): string => labelKey(h.commit, h.path, h.line);

/**
 * Carries labels from a previous measurement to the hits found again (same commit, path and
 * line), so re-measuring keeps a person's labels. A labelled hit is a fact about immutable
 * history: when the detector and applies_to are unchanged (`context.sameDetector`), a labelled
 * hit on a commit outside the new range (`--commits`/`--since` narrower than before) stays in
 * `hits` with its label; measuring the full history again finds it again. Labelled hits are
 * dropped (and counted) only when the detector changed, or when their commit was measured and
 * the hit is no longer there. Unlabelled hits outside the range go. Pure.
 */
export function carryLabels(
  next: readonly MeasuredHit[],
  previous: readonly MeasuredHit[] | undefined,
  context?: CarryContext,
): CarriedLabels {
  const labelled = (previous ?? []).filter((h): h is MeasuredHit & { label: HitLabel } => h.label !== undefined);
  // Nothing to carry (a first measurement): no copy of every hit, no key sets (tens of thousands on a long history).
  if (labelled.length === 0) return { hits: [...next], dropped: 0, keptOutOfRange: 0 };
  const labels = new Map(labelled.map((h) => [hitKey(h), verdictOf(h)]));
  const hits = next.map((h): MeasuredHit => withVerdict(h, verdictOf(h) ?? labels.get(hitKey(h))));
  const found = new Set([...hits.map(hitKey), ...(context?.absorbed ?? [])]);
  const ids = new Set(hits.map((h) => h.id));
  let dropped = 0;
  let keptOutOfRange = 0;
  for (const h of labelled) {
    if (found.has(hitKey(h))) continue;
    const keep = context?.sameDetector === true && !context.measuredCommits.has(h.commit) && !ids.has(h.id);
    if (keep) {
      hits.push(withVerdict(h, verdictOf(h)));
      ids.add(h.id);
      keptOutOfRange += 1;
    } else dropped += 1;
  }
  return { hits, dropped, keptOutOfRange };
}

export interface MeasurementSummary {
  readonly samples: number;
  readonly hits: number;
  readonly labelled: number;
  readonly true_positives: number;
  readonly false_positives: number;
  /** true positives / labelled hits; 0 when nothing is labelled. */
  readonly precision: number;
}

/** Counts of a measurement. Pure. */
export function summarize(m: Measurement): MeasurementSummary {
  let tp = 0;
  let fp = 0;
  for (const h of m.hits) {
    if (h.label === 'true_positive') tp += 1;
    else if (h.label === 'false_positive') fp += 1;
  }
  const labelled = tp + fp;
  return {
    samples: m.samples,
    hits: m.hits.length,
    labelled,
    true_positives: tp,
    false_positives: fp,
    precision: labelled === 0 ? 0 : tp / labelled,
  };
}

/** The `evidence.shadow_measurement` an activated index entry cites (schemas/constraint-index.schema.json). */
export function shadowMeasurementOf(m: Measurement): ShadowMeasurement {
  const s = summarize(m);
  return {
    samples: s.samples,
    hits: s.hits,
    labelled: s.labelled,
    true_positives: s.true_positives,
    false_positives: s.false_positives,
    precision: s.precision,
    evidence_ref: measurementPath(m.constraint_id),
    measured_at_commit: m.measured_at_commit,
  };
}

/** The detector and applicability a constraint is measured with (copied so staleness can be seen). */
export function measuredDetectorOf(entry: ConstraintEntry): MeasuredDetector {
  return { detector: entry.detector, applies_to: entry.applies_to };
}

/** True when two measurements replayed the same detector and applicability. */
export function sameDetector(a: MeasuredDetector, b: MeasuredDetector): boolean {
  return stableStringify(a.detector) === stableStringify(b.detector) && stableStringify(a.applies_to) === stableStringify(b.applies_to);
}

/** True when the entry's detector or applicability differs from what was measured. */
export function isStale(entry: ConstraintEntry, m: MeasuredDetector): boolean {
  return !sameDetector(measuredDetectorOf(entry), m);
}
