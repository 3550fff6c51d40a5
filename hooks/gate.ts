/**
 * The constraint gate: applies a constraint index to a set of files. Pure — files come in as
 * text, diagnostics go out as values (docs/contracts/compiler.md#gate-semantics):
 * shadow/warn hits and evaluation errors warn; active/block hits and evaluation errors block
 * (fail closed). Every constraint diagnostic ends with `findings explain <id>`.
 */
import { diagnostic, sortDiagnostics, type Diagnostic } from '../src/diagnostics.js';
import { compileAppliesTo } from '../src/match/applies.js';
import { BoundedEvaluator } from '../src/match/bounded.js';
import { buildPrefilter, compileDetector, type Matcher } from '../src/match/detector.js';
import { enforcementFor, indexEntryLine } from '../src/constraints/index-file.js';
import type { ConstraintEntry, ConstraintIndex } from '../src/types.js';

/** One file to judge: its path, its text, and (for change-scoped checks) the lines the change adds. */
export interface CheckedFile {
  readonly path: string;
  readonly text: string;
  /** Lines added by the change; undefined means the whole file counts (no base to compare with). */
  readonly added?: ReadonlySet<number> | undefined;
}

export interface GateOptions {
  /** Per constraint × file time budget (config `match_budget_ms`). */
  readonly budgetMs: number;
  /** Constraint ids to skip (FINDINGS_SKIP=id1,id2). */
  readonly skip: ReadonlySet<string>;
  /** The whole-check bypass to mention, e.g. `git commit --no-verify`; null outside hooks. */
  readonly bypass: string | null;
  /** Path and text of the index, to point evaluation errors at the entry's line. */
  readonly indexFile: string;
  readonly indexText: string;
  /** Entries judged more strictly than their index says (hooks/judgment.ts), with the note saying why. */
  readonly held?: ReadonlyMap<ConstraintEntry, string>;
}

/** True when status and enforcement_mode are the pair the lifecycle writes (active/block, shadow/warn, retired/off). */
export function consistent(c: ConstraintEntry): boolean {
  return enforcementFor(c.status) === c.enforcement_mode;
}

/**
 * True when the gate applies the entry: every entry but a consistent retired/off one. A retired
 * entry whose mode still says block or warn is a hand edit the gate cannot trust (fail closed).
 */
export function applies(c: ConstraintEntry): boolean {
  // Draft entries (upstream's) are not enforced, like retired ones.
  return !((c.status === 'retired' || c.status === 'draft') && c.enforcement_mode === 'off');
}

/** The constraints the gate applies, not skipped, sorted by id. */
export function applicableConstraints(index: ConstraintIndex, skip: ReadonlySet<string>): ConstraintEntry[] {
  // An earlier release's id (`c-<id>`) in FINDINGS_SKIP still names its constraint (reportSkip notes it).
  return index.constraints
    .filter((c) => applies(c) && !skip.has(c.id) && !skip.has(`c-${c.id}`))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * True when a hit of this constraint blocks: active/block, and (fail closed, docs/hooks.md) any
 * entry whose status and enforcement_mode disagree, since one of the two was edited by hand.
 */
export function blocks(c: ConstraintEntry): boolean {
  return c.status === 'active' || c.enforcement_mode === 'block' || !consistent(c);
}

/** The rule id of a constraint's diagnostics (ARCHITECTURE.md: `constraint/<constraint-id>`). */
export const constraintRuleId = (id: string): string => `constraint/${id}`;

/** Notes under every constraint diagnostic: checklist item, bypass, and the explain pointer (last). */
export function constraintNotes(c: ConstraintEntry, bypass: string | null): string[] {
  const notes: string[] = [];
  if (c.checklist_item) notes.push(`checklist: ${c.checklist_item}`);
  if (blocks(c)) {
    notes.push('active constraint: this blocks');
    const skipOne = `FINDINGS_SKIP=${c.id}`;
    notes.push(
      bypass
        ? `bypass: ${bypass} (skips every check), or ${skipOne} (skips this constraint)`
        : `bypass: ${skipOne} (skips this constraint)`,
    );
  } else {
    // Nothing to bypass: a shadow only reports, and its hits are what measurement counts.
    notes.push('shadow constraint: reported only, never blocks');
  }
  notes.push(`findings explain ${c.id}`);
  return notes;
}

interface Prepared {
  readonly entry: ConstraintEntry;
  readonly test: ((p: string) => boolean) | null;
  readonly matcher: Matcher | null;
  readonly problem: string | null;
  readonly addedOnly: boolean;
}

function prepare(c: ConstraintEntry): Prepared {
  const filter = compileAppliesTo(c.applies_to, { requireGlobs: c.status === 'active' });
  const compiled = compileDetector(c.detector);
  return {
    entry: c,
    test: filter.ok ? filter.test : null,
    matcher: compiled.ok ? compiled.matcher : null,
    problem: !filter.ok ? filter.problem : !compiled.ok ? compiled.problem : null,
    addedOnly: c.applies_to.scope === 'added-lines',
  };
}

function snippet(match: string): string {
  const oneLine = match.replace(/\s+/g, ' ').trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 57)}...` : oneLine;
}

/**
 * Files under `.agents/` are the findings layer itself: artifacts quote the bad pattern and
 * constraint fixtures are positive examples by design, so the gate never judges them. Pure.
 */
export function isGateExempt(path: string): boolean {
  return path.startsWith('.agents/');
}

/** True when the change adds any line of a hit's span (a multi-line hit counts when any of its lines is new). Pure. */
export function addsAnyLine(added: ReadonlySet<number>, first: number, last: number): boolean {
  for (let l = first; l <= last; l += 1) if (added.has(l)) return true;
  return false;
}

/**
 * Applies the index to the files and returns the sorted diagnostics. Every evaluation stops
 * within `budgetMs` (src/match/bounded.ts); an overrun is an evaluation error, so an active
 * constraint fails closed and a shadow warns.
 */
export async function runGate(index: ConstraintIndex, allFiles: readonly CheckedFile[], options: GateOptions): Promise<Diagnostic[]> {
  const evaluator = new BoundedEvaluator();
  try {
    return await judge(index, allFiles, options, evaluator);
  } finally {
    evaluator.close();
  }
}

async function judge(
  index: ConstraintIndex,
  allFiles: readonly CheckedFile[],
  options: GateOptions,
  evaluator: BoundedEvaluator,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const files = allFiles.filter((f) => !isGateExempt(f.path));
  const prepared = applicableConstraints(index, options.skip).map(prepare);
  // One linear pass per file tells which patterns occur at all; only those are evaluated.
  evaluator.warm(
    prepared.flatMap((p) => (p.matcher ? [p.matcher] : [])),
    files.reduce((n, f) => Math.max(n, f.text.length), 0),
    options.budgetMs,
  );
  const prefilter = buildPrefilter(prepared.flatMap((p) => (p.matcher ? [p.matcher] : [])));
  const decided = new Map<string, ReturnType<typeof prefilter.decide>>();
  /** True when the prefilter knows for sure the file has nothing to report for this matcher. */
  const ruledOut = (f: CheckedFile, m: Matcher): boolean => {
    let known = decided.get(f.path);
    if (!known) decided.set(f.path, (known = prefilter.decide(f.text)));
    if (known.undecided.has(m)) return false;
    // A pattern that occurs nowhere has no hit; a required pattern that occurs is satisfied.
    return known.occurring.has(m) === (m.mode === 'must_contain');
  };
  // Each path is tested once per distinct applies_to, not once per constraint (docs/hooks.md "Speed").
  const byGlobs = new Map<string, CheckedFile[]>();
  const covered = (p: Prepared): CheckedFile[] => {
    const key = JSON.stringify(p.entry.applies_to);
    let mine = byGlobs.get(key);
    if (mine === undefined) byGlobs.set(key, (mine = files.filter((f) => p.test!(f.path))));
    return mine;
  };
  for (const p of prepared) {
    const c = p.entry;
    const severity = blocks(c) ? 'error' : 'warning';
    const notes = constraintNotes(c, options.bypass);
    const held = options.held?.get(c);
    // The explain pointer stays last.
    if (held !== undefined) notes.splice(notes.length - 1, 0, held);
    const evaluationError = (file: string, line: number, why: string): Diagnostic =>
      diagnostic({
        file,
        line,
        severity,
        ruleId: constraintRuleId(c.id),
        message: `constraint "${c.id}" (${c.title}) could not be evaluated: ${why}`,
        notes,
      });
    if (p.test === null) {
      // The glob itself is broken: we cannot tell which files it covers, so it fails closed whenever anything is checked.
      if (files.length > 0)
        out.push(evaluationError(options.indexFile, indexEntryLine(options.indexText, c.id), p.problem ?? 'bad applies_to'));
      continue;
    }
    const mine = covered(p);
    if (mine.length === 0) continue;
    if (p.matcher === null) {
      out.push(evaluationError(options.indexFile, indexEntryLine(options.indexText, c.id), p.problem ?? 'bad detector'));
      continue;
    }
    for (const f of mine) {
      if (ruledOut(f, p.matcher)) continue;
      const result = await evaluator.evaluate(p.matcher, f.text, options.budgetMs);
      if (result.error) {
        out.push(evaluationError(f.path, 0, result.error));
        continue;
      }
      for (const hit of result.hits) {
        if (p.addedOnly && f.added !== undefined && !addsAnyLine(f.added, hit.line, hit.endLine)) continue;
        const what = p.matcher.mode === 'must_contain' ? 'required pattern is missing' : `matched "${snippet(hit.match)}"`;
        const detail = c.detector.message ? `${c.detector.message}; ${what}` : what;
        out.push(
          diagnostic({
            file: f.path,
            line: hit.line,
            column: hit.column,
            severity,
            ruleId: constraintRuleId(c.id),
            message: `${c.title} (${detail})`,
            notes,
          }),
        );
      }
    }
  }
  return sortDiagnostics(out);
}

/** True when any applicable constraint is change-scoped (so added lines are worth computing). */
export function needsAddedLines(index: ConstraintIndex, skip: ReadonlySet<string>): boolean {
  return applicableConstraints(index, skip).some((c) => c.applies_to.scope === 'added-lines');
}

/** Paths an added-lines constraint covers (to limit the patch to them). */
export function addedLinePaths(index: ConstraintIndex, skip: ReadonlySet<string>, paths: readonly string[]): string[] {
  const tests = applicableConstraints(index, skip)
    .filter((c) => c.applies_to.scope === 'added-lines')
    .map((c) => compileAppliesTo(c.applies_to))
    .flatMap((f) => (f.ok ? [f.test] : []));
  return paths.filter((p) => tests.some((t) => t(p)));
}
