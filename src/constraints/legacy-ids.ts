/**
 * Constraint ids of earlier releases (`c-<finding id>`) on the command line: accepted, mapped to
 * the current id (the finding id), with a one-line note (docs/compiler.md "The constraint index").
 */
import { LEGACY_ID_PREFIX } from '../types.js';
import { legacyIdTarget } from './shape.js';

/** The current id for a command-line id, and the note to print when it was an old one. Pure. */
export function currentConstraintId(id: string, known: ReadonlySet<string>): { id: string; note: string | null } {
  const target = legacyIdTarget(id);
  if (target === null || known.has(id)) return { id, note: null };
  return {
    id: target,
    note: `findings: "${id}" is a constraint id of an earlier release; constraint ids are now the finding id, so "${target}" is used`,
  };
}

/** Maps ids with the constraints of the working tree's index; notes go to `note`. */
export async function currentConstraintIds(root: string, ids: readonly string[], note: (line: string) => void): Promise<string[]> {
  if (!ids.some((id) => id.startsWith(LEGACY_ID_PREFIX))) return [...ids];
  const { readIndex } = await import('../lifecycle/store.js');
  const read = await readIndex(root);
  const known = new Set(read.kind === 'ok' ? read.index.constraints.map((c) => c.id) : []);
  return ids.map((id) => {
    const r = currentConstraintId(id, known);
    if (r.note !== null) note(r.note);
    return r.id;
  });
}
