/**
 * Index entries and their lifecycle (docs/contracts/compiler.md#the-constraint-index, #lifecycle;
 * docs/compiler.md#what-it-does, steps 3-4). The compiler never activates: a new entry is `shadow` + `warn`; an entry the
 * previous index holds `active` stays `active` + `block` (with its measurement) while it stays
 * qualified with the same detector and applicability; one retired by `findings constraint retire` stays retired,
 * one retired by compile (its finding was not active) comes back as shadow (see retiredByLifecycle).
 * Pure.
 */
import { enforcementFor } from '../src/constraints/index-file.js';
import { stableStringify } from '../src/json-stable.js';
import { normaliseAppliesTo, normaliseDetector } from '../src/constraints/shape.js';
import { constraintIdFor, type ConstraintEntry } from '../src/types.js';
import type { Finding } from './model.js';
import type { Qualified } from './qualify.js';

/** The entry a qualified finding compiles to, before lifecycle is applied (docs/compiler.md "The constraint index"). */
export function freshEntry(finding: Finding, refs: Qualified): ConstraintEntry {
  const d = finding.data;
  const c = d.compiler ?? {};
  const det = c.detector!;
  const a = c.applies_to ?? {};
  const review = c.review_file ?? '';
  return {
    id: constraintIdFor(finding.id),
    finding_id: finding.id,
    title: d.title,
    source: 'finding',
    source_artifact: finding.path,
    compiler_targets: [...finding.targets].sort(),
    detectability: d.detectability,
    status: 'shadow',
    enforcement_mode: 'warn',
    // From the input, never the clock: recompiling unchanged input changes nothing.
    compiled_at: d.date,
    ...(review !== '' ? { review_file: review } : {}),
    // Prefixes and extensions become globs, flags an inline group: upstream's decoder has no such keys.
    applies_to: normaliseAppliesTo({ ...a, path_globs: a.path_globs && a.path_globs.length > 0 ? a.path_globs : ['**'] }),
    detector: normaliseDetector({ ...det }),
    evidence: {
      ...(refs.positives.length > 0 ? { positive_refs: refs.positives } : {}),
      ...(refs.negatives.length > 0 ? { negative_control_refs: refs.negatives } : {}),
    },
    file: review,
  };
}

/** Same detector: kind, canonical mode, pattern (flags inline) and exclude. */
export function sameDetector(a: ConstraintEntry['detector'], b: ConstraintEntry['detector']): boolean {
  return a.kind === b.kind && (a.mode ?? '') === (b.mode ?? '') && a.pattern === b.pattern && (a.exclude ?? '') === (b.exclude ?? '');
}

function sameAppliesTo(a: ConstraintEntry['applies_to'], b: ConstraintEntry['applies_to']): boolean {
  return stableStringify(a) === stableStringify(b);
}

/** The activation evidence of an entry (the measurement it cites), without its fixtures. */
function activationEvidence(e: ConstraintEntry['evidence']): ConstraintEntry['evidence'] {
  const { positive_refs: _p, negative_control_refs: _n, ...rest } = e;
  return rest;
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
  const kept: ConstraintEntry = { ...fresh, evidence: { ...fresh.evidence, ...activationEvidence(previous.evidence) } };
  return previous.status === 'active' ? withStatus(kept, 'active') : kept;
}

/**
 * Who retired an entry, told apart without a field the index schema lacks:
 * - `findings constraint retire` accepts only `active` entries, and activation always records
 *   `evidence.precision_evidence_ref` (the measurement), so an entry it retired carries one. That retirement
 *   is a decision about the constraint and is sticky across recompiles.
 * - compile retires an entry only because its finding stopped being active (retiredEntry), and
 *   then drops the measurement: when the finding is active again, the entry comes back as a fresh
 *   `shadow` (re-activating is the lifecycle commands' call, against a new measurement).
 */
function retiredByLifecycle(e: ConstraintEntry): boolean {
  return e.evidence.precision_evidence_ref !== undefined;
}

/**
 * A finding that is no longer active (draft, retired, superseded) leaves only a retired entry.
 * An entry already retired is kept as it is (a lifecycle retirement stays recognisable).
 */
export function retiredEntry(previous: ConstraintEntry): ConstraintEntry {
  if (previous.status === 'retired') return previous;
  const { positive_refs, negative_control_refs } = previous.evidence;
  const evidence = { ...(positive_refs ? { positive_refs } : {}), ...(negative_control_refs ? { negative_control_refs } : {}) };
  return { ...withStatus(previous, 'retired'), evidence };
}
