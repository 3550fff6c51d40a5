/**
 * How many inline suppressions name a constraint, for `findings explain <id>` (docs/hooks.md,
 * "Inline suppressions"): the `findings-ignore` markers with a reason in the tracked files at
 * HEAD, found with one `git grep` (so an untracked scratch file never counts).
 */
import { runGit } from '../src/git/core.js';
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
  // -z: `HEAD:<path>\0<line>\0<text>\n`, so a path may hold colons. Exit 1 means no match.
  const r = await runGit(root, ['grep', '-z', '-n', '-I', '-F', '-e', 'findings-ignore', 'HEAD', '--']);
  let markers = 0;
  let withoutReason = 0;
  const files = new Set<string>();
  if (r.code !== 0) return { markers: 0, without_reason: 0, files: 0 };
  for (const row of r.stdout.toString('utf8').split('\n')) {
    const [name, , text] = row.split('\0');
    if (name === undefined || text === undefined) continue;
    for (const m of findMarkers(text)) {
      if (!sameConstraint(m.id, id)) continue;
      if (m.reason === null) withoutReason += 1;
      else markers += 1;
      files.add(name);
    }
  }
  return { markers, without_reason: withoutReason, files: files.size };
}
