/**
 * The constraint index as git holds it at a revision (`<sha>:path`) or in the index (`:path`):
 * rule metadata for SARIF and the "new or changed constraints" of a range for Markdown.
 */
import { parseConstraintIndex } from '../constraints/index-file.js';
import { readObjects } from '../git/core.js';
import { Layout } from '../layout.js';
import type { ConstraintEntry } from '../types.js';

/** Entries of an index text; [] when absent or invalid (the caller reports invalid indexes). Pure. */
export function constraintsOf(indexText: string | null): ConstraintEntry[] {
  if (indexText === null) return [];
  const parsed = parseConstraintIndex(indexText, Layout.constraintIndex);
  return parsed.ok ? parsed.index.constraints : [];
}

/** The index's entries at a revision, or in git's index when `rev` is ''. */
export async function constraintsAt(root: string, rev: string): Promise<ConstraintEntry[]> {
  const name = `${rev}:${Layout.constraintIndex}`;
  const blob = (await readObjects(root, [name])).get(name);
  return constraintsOf(blob ? blob.toString('utf8') : null);
}
