/**
 * A change cannot weaken its own judgment (docs/hooks.md, "What a change can and cannot do to
 * its own judgment"): a change is judged by the stricter of the constraint index before it and
 * the one after it. Pure.
 *
 * Per constraint id:
 * - the entry after the change is applied as it is (a new or stricter constraint counts at once);
 * - an entry that blocked before the change and that the change demotes (active → shadow, a hand
 *   edit of enforcement_mode), retires or removes is still applied, blocking;
 * - an entry that blocked before the change and whose detector or applicability the change
 *   alters is applied in both versions: the old detector still blocks, the new one is judged as
 *   the index after the change says.
 * A shadow before the change only ever warned, so dropping or changing it weakens nothing that
 * blocks, and the index after the change alone judges it.
 */
import { stableStringify } from '../src/json-stable.js';
import type { ConstraintEntry, ConstraintIndex } from '../src/types.js';
import { applies, blocks } from './gate.js';

export interface Judgment {
  /** The entries to apply; one id can appear twice (its old and its new detector). */
  readonly index: ConstraintIndex;
  /** Entries applied more strictly than the index after the change says, with the reason (a diagnostic note). */
  readonly held: ReadonlyMap<ConstraintEntry, string>;
}

function sameDetector(a: ConstraintEntry['detector'], b: ConstraintEntry['detector']): boolean {
  return a.kind === b.kind && (a.mode ?? '') === (b.mode ?? '') && a.pattern === b.pattern && (a.exclude ?? '') === (b.exclude ?? '');
}

function sameAppliesTo(a: ConstraintEntry['applies_to'], b: ConstraintEntry['applies_to']): boolean {
  return stableStringify(a) === stableStringify(b);
}

/** The note a held entry's diagnostics carry. */
export function heldNote(id: string, what: string): string {
  return (
    `this change ${what} active constraint "${id}", so it is judged by the index before the change: ` +
    'a demotion, retirement or pattern change of an active constraint can land only in a commit that does not need it ' +
    '(commit the index change on its own first, or fix the violation)'
  );
}

/** Merges the index before a change (null: none, a base-less tree) and after it into the stricter judgment. */
export function stricterJudgment(before: ConstraintIndex | null, after: ConstraintIndex): Judgment {
  if (before === null || before.constraints.length === 0) return { index: after, held: new Map() };
  const afterById = new Map<string, ConstraintEntry>();
  for (const c of after.constraints) afterById.set(c.id, c);
  const held = new Map<ConstraintEntry, string>();
  const entries: ConstraintEntry[] = [...after.constraints];
  const hold = (e: ConstraintEntry, what: string): void => {
    entries.push(e);
    held.set(e, heldNote(e.id, what));
  };
  for (const b of before.constraints) {
    if (!applies(b) || !blocks(b)) continue;
    const a = afterById.get(b.id);
    if (a === undefined) {
      hold({ ...b }, 'removes');
      continue;
    }
    const sameCheck = sameDetector(a.detector, b.detector) && sameAppliesTo(a.applies_to, b.applies_to);
    if (sameCheck && applies(a) && blocks(a)) continue;
    if (sameCheck) {
      // One detector, judged at the stricter severity: replace the weakened entry by the old one.
      const at = entries.indexOf(a);
      if (at !== -1) entries.splice(at, 1);
      hold({ ...b }, applies(a) ? 'demotes' : 'retires');
      continue;
    }
    hold({ ...b }, applies(a) ? 'changes the detector or applicability of' : 'retires');
  }
  return { index: { ...after, constraints: entries }, held };
}
