/**
 * Replay qualification (docs/contracts/compiler.md#replay-qualification; docs/compiler.md#what-it-does, step 3). A mechanical
 * finding enters the index only when its detector compiles and is safe, it has at least one
 * positive fixture and one negative control, every positive is flagged and no negative is.
 * "Flagged" is exactly what the gate reports: `violates()` of the shared matching engine, so a
 * `must_contain` positive is a file *without* the pattern. Pure.
 */
import { diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { compileAppliesTo } from '../src/match/applies.js';
import { compileDetector, evaluate } from '../src/match/detector.js';
import { normalizeRelative, relativePathProblem } from '../src/paths.js';
import { findingKeyLine, type Finding } from './model.js';

/** A fixture as the loader found it. */
export type FixtureSource =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  /** Refused by the loader: a symlink that leaves the root, or a symlink blob in git. */
  | { readonly kind: 'refused'; readonly problem: string };

export interface Qualified {
  readonly positives: string[];
  readonly negatives: string[];
}

export type Qualification =
  | { readonly ok: true; readonly refs: Qualified }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Time budget per fixture; generous, since fixtures are small and replay is not on a hook's hot path. */
const REPLAY_BUDGET_MS = 1000;

/**
 * The line of the finding's `compiler:` key, looked up on first use: only a diagnostic needs it,
 * and a compile qualifies every mechanical finding (1,000 in the benchmark) without one.
 */
function compilerLine(finding: Finding): () => number {
  let line: number | undefined;
  return () => (line ??= findingKeyLine(finding, 'compiler'));
}

/** Fixture refs as written, normalised; refs with a path problem are reported, not returned. */
export function fixtureRefs(finding: Finding): { positives: string[]; negatives: string[]; problems: Diagnostic[] } {
  const ev = finding.data.compiler?.evidence;
  const line = compilerLine(finding);
  const problems: Diagnostic[] = [];
  const clean = (refs: readonly string[] | undefined, what: string): string[] => {
    const out: string[] = [];
    for (const ref of refs ?? []) {
      const problem = relativePathProblem(ref);
      if (problem) {
        problems.push(
          diagnostic({ file: finding.path, line: line(), ruleId: 'compiler/fixture-ref', message: `${what} "${ref}" ${problem}` }),
        );
        continue;
      }
      const n = normalizeRelative(ref);
      if (!out.includes(n)) out.push(n);
    }
    return out;
  };
  return {
    positives: clean(ev?.positive_refs, 'positive fixture'),
    negatives: clean(ev?.negative_control_refs, 'negative control'),
    problems,
  };
}

/** Qualifies a mechanical finding against its fixtures. */
export function qualify(finding: Finding, fixtures: ReadonlyMap<string, FixtureSource>): Qualification {
  const file = finding.path;
  const line = compilerLine(finding);
  const warn = (ruleId: string, message: string): Qualification => ({
    ok: false,
    diagnostics: [
      diagnostic({
        file,
        line: line(),
        severity: 'warning',
        ruleId,
        message: `${message}; no constraint is compiled (advisory outputs are still written)`,
      }),
    ],
  });
  const spec = finding.data.compiler?.detector;
  if (!spec) return warn('compiler/no-detector', 'mechanical finding has no compiler.detector');
  if (spec.kind === 'paired_files' || spec.kind === 'restricted_command') {
    return warn('compiler/not-enforced', `detector kind "${spec.kind}" is not enforced by this compiler`);
  }
  const compiled = compileDetector(spec);
  if (!compiled.ok)
    return warn(compiled.problem.startsWith('pattern is unsafe') ? 'compiler/unsafe-pattern' : 'compiler/detector', compiled.problem);
  // An artifact's `!` globs exclude: its entry goes to the extended index (compiler/placement.ts).
  const applies = compileAppliesTo(finding.data.compiler?.applies_to ?? {}, { exclusions: true });
  if (!applies.ok) {
    // A glob that can never match is an error, not "no file" (docs/hooks.md "Globs").
    if (/matches no file/.test(applies.problem))
      return {
        ok: false,
        diagnostics: [
          diagnostic({ file, line: line(), ruleId: 'compiler/applies-to', message: `compiler.applies_to: ${applies.problem}` }),
        ],
      };
    return warn('compiler/applies-to', `compiler.applies_to: ${applies.problem}`);
  }
  const refs = fixtureRefs(finding);
  if (refs.problems.length > 0) return { ok: false, diagnostics: refs.problems };
  if (refs.positives.length === 0 || refs.negatives.length === 0) {
    return warn(
      'compiler/no-fixtures',
      'replay needs at least one compiler.evidence.positive_refs fixture and one negative_control_refs fixture',
    );
  }
  const failures: Diagnostic[] = [];
  const replay = (ref: string, positive: boolean): void => {
    const what = positive ? 'positive fixture' : 'negative control';
    const src = fixtures.get(ref) ?? { kind: 'missing' };
    if (src.kind === 'missing') {
      failures.push(
        diagnostic({
          file,
          line: line(),
          severity: 'warning',
          ruleId: 'compiler/fixture-missing',
          message: `${what} "${ref}" does not exist`,
        }),
      );
      return;
    }
    if (src.kind === 'refused') {
      failures.push(diagnostic({ file, line: line(), ruleId: 'compiler/fixture-ref', message: `${what} "${ref}" ${src.problem}` }));
      return;
    }
    const r = evaluate(compiled.matcher, src.text, { budgetMs: REPLAY_BUDGET_MS, maxHits: 1 });
    if (r.error) {
      failures.push(
        diagnostic({ file, line: line(), severity: 'warning', ruleId: 'compiler/replay', message: `${what} "${ref}": ${r.error}` }),
      );
      return;
    }
    const flagged = r.hits.length > 0;
    if (positive && !flagged)
      failures.push(
        diagnostic({
          file,
          line: line(),
          severity: 'warning',
          ruleId: 'compiler/replay',
          message: `positive fixture "${ref}" is not flagged by the detector (it must be a violation)`,
        }),
      );
    if (!positive && flagged)
      failures.push(
        diagnostic({
          file,
          line: line(),
          severity: 'warning',
          ruleId: 'compiler/replay',
          message: `negative control "${ref}" is flagged by the detector (it must not be)`,
        }),
      );
  };
  for (const ref of refs.positives) replay(ref, true);
  for (const ref of refs.negatives) replay(ref, false);
  if (failures.length > 0) {
    const d = failures.map((f) => (f.severity === 'warning' ? { ...f, message: `${f.message}; no constraint is compiled` } : f));
    return { ok: false, diagnostics: d };
  }
  return { ok: true, refs: { positives: refs.positives, negatives: refs.negatives } };
}
