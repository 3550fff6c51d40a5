/**
 * What the gate did not judge, said out loud (docs/hooks.md): the constraints FINDINGS_SKIP
 * skipped (as pre-commit's SKIP prints its skipped hooks), FINDINGS_SKIP ids that match no
 * constraint (a typo would otherwise skip nothing, silently), and binary files that an active
 * constraint covers but the gate cannot read. Pure.
 */
import { compareStrings, diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { Layout } from '../src/layout.js';
import { entryPathFilter } from '../src/match/applies.js';
import type { ConstraintEntry, ConstraintIndex } from '../src/types.js';
import { applicableConstraints, applies, blocks, isGateExempt } from './gate.js';

/** One status line per skipped constraint, and a warning per id that names no constraint. */
export function reportSkip(skip: ReadonlySet<string>, entries: readonly ConstraintEntry[]): { lines: string[]; diagnostics: Diagnostic[] } {
  const lines: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const id of [...skip].filter((x) => x !== 'all').sort(compareStrings)) {
    const entry = entries.find((c) => c.id === id) ?? entries.find((c) => `c-${c.id}` === id);
    if (entry !== undefined && entry.id !== id)
      lines.push(
        `findings: FINDINGS_SKIP: "${id}" is a constraint id of an earlier release; constraint ids are now the finding id ("${entry.id}")`,
      );
    if (entry === undefined) {
      diagnostics.push(
        diagnostic({
          file: Layout.constraintIndex,
          severity: 'warning',
          ruleId: 'gate/skip-unknown',
          message:
            `FINDINGS_SKIP names "${id}", which matches no constraint in the ` +
            `index; nothing was skipped for it (check the id: \`findings explain <id>\`)`,
        }),
      );
    } else if (applies(entry)) {
      lines.push(`findings: FINDINGS_SKIP: skipped constraint ${id} (${entry.title})`);
    }
  }
  return { lines, diagnostics };
}

/** A warning per binary file that a blocking constraint covers: it was not judged. */
export function binarySkipWarnings(index: ConstraintIndex, skip: ReadonlySet<string>, binaryPaths: readonly string[]): Diagnostic[] {
  const paths = binaryPaths.filter((p) => !isGateExempt(p));
  if (paths.length === 0) return [];
  const covering = applicableConstraints(index, skip)
    .filter(blocks)
    .map((c) => ({ id: c.id, filter: entryPathFilter(c, { requireGlobs: false }) }));
  const out: Diagnostic[] = [];
  for (const p of paths) {
    const ids = [...new Set(covering.filter((c) => !c.filter.ok || c.filter.test(p)).map((c) => c.id))];
    if (ids.length === 0) continue;
    out.push(
      diagnostic({
        file: p,
        severity: 'warning',
        ruleId: 'gate/binary-skipped',
        message: `not checked: the file is binary (a NUL byte and not valid UTF-8), yet active constraint(s) ${ids.join(', ')} cover it`,
      }),
    );
  }
  return out;
}
