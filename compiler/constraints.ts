/**
 * Index entries and their lifecycle (finding-compiler.md "The constraint index", "Lifecycle";
 * issue steps 3-4). The compiler never activates: a new entry is `shadow` + `warn`; an entry the
 * previous index holds `active` stays `active` + `block` (with its measurement) while it stays
 * qualified with the same detector and applicability; one retired by `findings constraint retire` stays retired,
 * one retired by compile (its finding was not active) comes back as shadow (see retiredByLifecycle).
 * Pure.
 */
import { enforcementFor } from '../src/constraints/index-file.js';
import { stableStringify } from '../src/json-stable.js';
import { constraintIdFor, type ConstraintEntry } from '../src/types.js';
import type { Finding } from './model.js';
import type { Qualified } from './qualify.js';

/** The entry a qualified finding compiles to, before lifecycle is applied. */
export function freshEntry(finding: Finding, refs: Qualified): ConstraintEntry {
  const d = finding.data;
  const c = d.compiler ?? {};
  const det = c.detector!;
  const a = c.applies_to ?? {};
  return {
    id: constraintIdFor(finding.id),
    finding_id: finding.id,
    title: d.title,
    checklist_item: d.checklist_item,
    status: 'shadow',
    enforcement_mode: 'warn',
    ...(d.tier !== undefined ? { tier: d.tier } : {}),
    source_artifact: finding.path,
    review_file: c.review_file ?? null,
    // From the input, never the clock: recompiling unchanged input changes nothing.
    compiled_at: d.date,
    applies_to: {
      scope: a.scope ?? 'files',
      path_globs: a.path_globs && a.path_globs.length > 0 ? [...a.path_globs] : ['**'],
      ...(a.path_prefixes ? { path_prefixes: [...a.path_prefixes] } : {}),
      ...(a.extensions ? { extensions: [...a.extensions] } : {}),
      ...(a.languages ? { languages: [...a.languages] } : {}),
      ...(a.issue_types ? { issue_types: [...a.issue_types] } : {}),
    },
    detector: {
      kind: det.kind as 'regex' | 'content_pattern',
      ...(det.kind === 'content_pattern' && det.mode ? { mode: det.mode } : {}),
      pattern: det.pattern!,
      ...(det.flags ? { flags: det.flags } : {}),
      ...(det.message ? { message: det.message } : {}),
    },
    evidence: { positive_refs: refs.positives, negative_control_refs: refs.negatives },
  };
}

function sameDetector(a: ConstraintEntry['detector'], b: ConstraintEntry['detector']): boolean {
  return a.kind === b.kind && (a.mode ?? '') === (b.mode ?? '') && a.pattern === b.pattern && (a.flags ?? '') === (b.flags ?? '');
}

function sameAppliesTo(a: ConstraintEntry['applies_to'], b: ConstraintEntry['applies_to']): boolean {
  return stableStringify(a) === stableStringify(b);
}

function withStatus(e: ConstraintEntry, status: ConstraintEntry['status']): ConstraintEntry {
  return { ...e, status, enforcement_mode: enforcementFor(status) };
}

/**
 * Applies lifecycle to a qualified finding's fresh entry given the previous one.
 * A measurement (and so an activation) belongs to a detector: when the pattern changes, the
 * entry goes back to shadow without it, because activation accepts only precision-backed shadows.
 */
export function qualifiedEntry(fresh: ConstraintEntry, previous: ConstraintEntry | undefined): ConstraintEntry {
  if (!previous) return fresh;
  if (previous.status === 'retired') return retiredByLifecycle(previous) ? withStatus(previous, 'retired') : fresh;
  // A measurement is of one detector over one applicability: widen the globs and the entry has
  // not been measured on the new files, so it goes back to shadow (as activation would refuse it).
  if (!sameDetector(previous.detector, fresh.detector) || !sameAppliesTo(previous.applies_to, fresh.applies_to)) return fresh;
  const measured = previous.evidence.shadow_measurement;
  const kept: ConstraintEntry = measured ? { ...fresh, evidence: { ...fresh.evidence, shadow_measurement: measured } } : fresh;
  return previous.status === 'active' ? withStatus(kept, 'active') : kept;
}

/**
 * Who retired an entry, told apart without a field the index schema lacks:
 * - `findings constraint retire` accepts only `active` entries, and activation always records
 *   `evidence.shadow_measurement`, so an entry it retired carries a measurement. That retirement
 *   is a decision about the constraint and is sticky across recompiles.
 * - compile retires an entry only because its finding stopped being active (retiredEntry), and
 *   then drops the measurement: when the finding is active again, the entry comes back as a fresh
 *   `shadow` (re-activating is the lifecycle commands' call, against a new measurement).
 */
function retiredByLifecycle(e: ConstraintEntry): boolean {
  return e.evidence.shadow_measurement !== undefined;
}

/**
 * A finding that is no longer active (draft, retired, superseded) leaves only a retired entry.
 * An entry already retired is kept as it is (a lifecycle retirement stays recognisable).
 */
export function retiredEntry(previous: ConstraintEntry): ConstraintEntry {
  if (previous.status === 'retired') return previous;
  const { shadow_measurement: _dropped, ...evidence } = previous.evidence;
  return { ...withStatus(previous, 'retired'), evidence };
}
