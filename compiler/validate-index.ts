/**
 * Constraint index rules for `findings validate`, over both files of the set (index.json and
 * extended.json, src/constraints/constraint-set.ts): JSON, each file's schema in schemas/,
 * duplicate ids (within a file and across the two), and the invariants the gate relies on:
 * status and enforcement agree (docs/contracts/compiler.md#lifecycle), each id is its finding id
 * (an earlier release's `c-<finding_id>` is migrated on read), and every glob can match a file
 * (docs/hooks.md "Globs").
 */
import { diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { entryLocation, originOf, parseConstraintSet, type ConstraintTexts } from '../src/constraints/constraint-set.js';
import { enforcementFor } from '../src/constraints/index-file.js';
import { Layout } from '../src/layout.js';
import { constraintIdFor, type ConstraintEntry } from '../src/types.js';
import { appliesToProblem } from '../src/match/applies.js';
import { portabilityProblems } from './placement.js';
import type { ValidateContext, ValidateTarget } from '../src/validate/types.js';

const isExtended = (file: string): boolean => file.endsWith('/extended.json') || file === 'extended.json';

export async function validateIndexTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  // The layout's two files are one set: validated together, the other one read when only one is a target.
  const layout = targets.filter((t) => t.file === Layout.constraintIndex || t.file === Layout.extendedIndex);
  if (layout.length > 0) {
    const given = (file: string): string | null | undefined => layout.find((t) => t.file === file)?.text;
    const other = async (file: string): Promise<string | null> => {
      const text = given(file);
      if (text !== undefined) return text;
      const data = await ctx.files.read(file).catch(() => null);
      return data === null ? null : data.toString('utf8');
    };
    const texts: ConstraintTexts = { index: await other(Layout.constraintIndex), extended: await other(Layout.extendedIndex) };
    const reported = new Set(layout.map((t) => t.file));
    out.push(...validateSet(texts).filter((d) => reported.has(d.file)));
  }
  for (const t of targets) {
    if (layout.includes(t)) continue;
    // Any other file named like one of the two: validated on its own, by its name.
    const texts: ConstraintTexts = isExtended(t.file) ? { index: null, extended: t.text } : { index: t.text, extended: null };
    out.push(
      ...validateSet(texts).map((d) => ({
        ...d,
        file: d.file === Layout.constraintIndex || d.file === Layout.extendedIndex ? t.file : d.file,
      })),
    );
  }
  return out;
}

/** The rules over one set of constraint files. Pure. */
function validateSet(texts: ConstraintTexts): Diagnostic[] {
  const parsed = parseConstraintSet(texts);
  if (!parsed.ok) return [...parsed.diagnostics];
  return parsed.index.constraints.flatMap((c) => entryProblems(c, texts));
}

function entryProblems(c: ConstraintEntry, texts: ConstraintTexts): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { file, line } = entryLocation(texts, c);
  if (c.enforcement_mode !== enforcementFor(c.status)) {
    out.push(
      diagnostic({
        file,
        line,
        ruleId: 'constraint-index/enforcement',
        message: `constraint "${c.id}" is ${c.status} but enforcement_mode is "${c.enforcement_mode}" (expected "${enforcementFor(c.status)}")`,
      }),
    );
  }
  if (c.id !== constraintIdFor(c.finding_id)) {
    out.push(
      diagnostic({
        file,
        line,
        ruleId: 'constraint-index/id',
        message: `constraint id "${c.id}" should be "${constraintIdFor(c.finding_id)}" for finding "${c.finding_id}"`,
      }),
    );
  }
  const globs = appliesToProblem(c.applies_to, c.status === 'active', { exclusions: originOf(c) === 'extended' });
  if (globs !== null)
    out.push(diagnostic({ file, line, ruleId: 'constraint-index/path-globs', message: `constraint "${c.id}": ${globs}` }));
  // index.json is shared with upstream's gate, which decodes strictly and fails closed (compiler/placement.ts).
  const portability = originOf(c) === 'index' ? portabilityProblems(c) : [];
  if (portability.length > 0)
    out.push(
      diagnostic({
        file,
        line,
        severity: 'warning',
        ruleId: 'constraint-index/not-portable',
        message:
          `constraint "${c.id}" is in index.json, which upstream's gate reads too, but it cannot take it as it is: ${portability.join('; ')}; ` +
          'it belongs in .agents/constraints/extended.json (`findings compile` moves the entries it writes)',
      }),
    );
  return out;
}
