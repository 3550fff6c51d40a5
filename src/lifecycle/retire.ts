/**
 * `findings constraint retire <id>` (docs/contracts/compiler.md#lifecycle: retirement accepts only
 * active entries). The entry stays in the index for history as `retired` + `off`; the gate
 * ignores it and the compiler keeps it retired.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { enforcementFor } from '../constraints/index-file.js';
import { Layout } from '../layout.js';
import type { ConstraintEntry } from '../types.js';
import { indexProblem, mutateIndexLocked, withCompileLock } from './store.js';
import { fileOf } from '../constraints/constraint-set.js';

/** Why an entry may not be retired, or null. Pure. */
export function retireRefusal(entry: ConstraintEntry | undefined, id: string): Diagnostic | null {
  if (!entry)
    return diagnostic({
      file: Layout.constraintIndex,
      ruleId: 'lifecycle/unknown-constraint',
      message: `no constraint "${id}" in the index`,
    });
  if (entry.status !== 'active') {
    return diagnostic({
      file: fileOf(entry),
      ruleId: 'lifecycle/not-active',
      message: `cannot retire ${id}: its status is "${entry.status}"; only active constraints can be retired`,
    });
  }
  return null;
}

/** Retires an active constraint under compile.lock. */
export async function retireConstraint(root: string, id: string): Promise<{ diagnostics: Diagnostic[]; retired: boolean }> {
  return withCompileLock(root, async () => {
    const r = await mutateIndexLocked(root, (index) => {
      const refusal = retireRefusal(
        index.constraints.find((c) => c.id === id),
        id,
      );
      if (refusal) return { index: null, result: refusal };
      const constraints = index.constraints.map(
        (c): ConstraintEntry => (c.id === id ? { ...c, status: 'retired', enforcement_mode: enforcementFor('retired') } : c),
      );
      return { index: { ...index, constraints }, result: null };
    });
    if (r.read.kind !== 'ok') return { diagnostics: indexProblem(r.read), retired: false };
    return r.result ? { diagnostics: [r.result], retired: false } : { diagnostics: [], retired: true };
  });
}
