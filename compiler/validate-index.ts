/**
 * Constraint index rules for `findings validate`: JSON, the schema in schemas/, duplicate ids
 * (parseConstraintIndex), and the invariants the gate relies on: status and enforcement agree
 * (docs/contracts/compiler.md#lifecycle), each id is its finding id (an earlier release's `c-<finding_id>`
 * is migrated on read), and every glob can match a file (docs/hooks.md "Globs").
 */
import { diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { enforcementFor, indexEntryLine, parseConstraintIndex } from '../src/constraints/index-file.js';
import { constraintIdFor } from '../src/types.js';
import { appliesToProblem } from '../src/match/applies.js';
import type { ValidateContext, ValidateTarget } from '../src/validate/types.js';

export async function validateIndexTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  void ctx;
  const out: Diagnostic[] = [];
  for (const t of targets) {
    const parsed = parseConstraintIndex(t.text, t.file);
    if (!parsed.ok) {
      out.push(...parsed.diagnostics);
      continue;
    }
    for (const c of parsed.index.constraints) {
      const line = indexEntryLine(t.text, c.id);
      if (c.enforcement_mode !== enforcementFor(c.status)) {
        out.push(
          diagnostic({
            file: t.file,
            line,
            ruleId: 'constraint-index/enforcement',
            message: `constraint "${c.id}" is ${c.status} but enforcement_mode is "${c.enforcement_mode}" (expected "${enforcementFor(c.status)}")`,
          }),
        );
      }
      if (c.id !== constraintIdFor(c.finding_id)) {
        out.push(
          diagnostic({
            file: t.file,
            line,
            ruleId: 'constraint-index/id',
            message: `constraint id "${c.id}" should be "${constraintIdFor(c.finding_id)}" for finding "${c.finding_id}"`,
          }),
        );
      }
      const globs = appliesToProblem(c.applies_to, c.status === 'active');
      if (globs !== null)
        out.push(diagnostic({ file: t.file, line, ruleId: 'constraint-index/path-globs', message: `constraint "${c.id}": ${globs}` }));
    }
  }
  return out;
}
