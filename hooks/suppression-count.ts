/**
 * How many inline suppressions name a constraint, for `findings explain <id>` (docs/hooks.md,
 * "Inline suppressions"): the `findings-ignore` markers with a reason in the tracked files at
 * HEAD, found with one `git grep` (so an untracked scratch file never counts).
 */
import { linesAt } from '../src/git/grep.js';
import { findMarkers, sameConstraint } from './suppressions.js';

export interface SuppressionCount {
  /** Markers with a reason naming the constraint (either id form). */
  readonly markers: number;
  /** Markers naming it without a reason (they suppress nothing; the gate reports them). */
  readonly without_reason: number;
  /** Files holding at least one of either. */
  readonly files: number;
}

/** Counts the markers naming `id` at HEAD; zero when there is no HEAD or no marker. */
export async function countSuppressionsAtHead(root: string, id: string): Promise<SuppressionCount> {
  let markers = 0;
  let withoutReason = 0;
  const files = new Set<string>();
  for (const { path: name, text } of await linesAt(root, 'HEAD', 'findings-ignore')) {
    for (const m of findMarkers(text)) {
      if (!sameConstraint(m.id, id)) continue;
      if (m.reason === null) withoutReason += 1;
      else markers += 1;
      files.add(name);
    }
  }
  return { markers, without_reason: withoutReason, files: files.size };
}
