/**
 * The constraint files (index.json and extended.json, one set: src/constraints/constraint-set.ts)
 * as git holds them at a revision (`<sha>:path`) or in the index (`:path`): rule metadata for
 * SARIF and the "new or changed constraints" of a range for Markdown.
 */
import { parseConstraintSet, type ConstraintTexts } from '../constraints/constraint-set.js';
import { readObjects } from '../git/core.js';
import { Layout } from '../layout.js';
import type { ConstraintEntry } from '../types.js';

/** Entries of the constraint files' texts; [] when absent or invalid (the caller reports invalid files). Pure. */
export function constraintsOf(texts: ConstraintTexts): ConstraintEntry[] {
  const parsed = parseConstraintSet(texts);
  return parsed.ok ? parsed.index.constraints : [];
}

/** The constraint files' entries at a revision, or in git's index when `rev` is ''. */
export async function constraintsAt(root: string, rev: string): Promise<ConstraintEntry[]> {
  const index = `${rev}:${Layout.constraintIndex}`;
  const extended = `${rev}:${Layout.extendedIndex}`;
  const blobs = await readObjects(root, [index, extended]);
  return constraintsOf({ index: blobs.get(index)?.toString('utf8') ?? null, extended: blobs.get(extended)?.toString('utf8') ?? null });
}
