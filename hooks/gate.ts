/**
 * The constraint gate: applies a constraint index to a set of files. Pure — files come in as
 * text, diagnostics go out as values (docs/contracts/compiler.md#gate-semantics):
 * shadow/warn hits and evaluation errors warn; active/block hits and evaluation errors block
 * (fail closed). Every constraint diagnostic ends with `findings explain <id>`.
 */
import { diagnostic, sortDiagnostics, type Diagnostic } from '../src/diagnostics.js';
import { entryPathFilter } from '../src/match/applies.js';
import { BoundedEvaluator } from '../src/match/bounded.js';
import { buildPrefilter, compileDetector, kindsOf, loadDetectorKinds, type Matcher, type Prefilter } from '../src/match/detector.js';
import { enforcementFor, indexEntryLine } from '../src/constraints/index-file.js';
import { originOf } from '../src/constraints/constraint-set.js';
import { Layout } from '../src/layout.js';
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
  /** Text of the extended index (`.agents/constraints/extended.json`), for the entries it holds. */
  readonly extendedText?: string | undefined;
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
  /** Constraints with the same applies_to share one path test per file. */
  readonly coverageKey: string;
}

function prepare(c: ConstraintEntry): Prepared {
  const filter = entryPathFilter(c);
  const compiled = compileDetector(c.detector);
  return {
    entry: c,
    test: filter.ok ? filter.test : null,
    matcher: compiled.ok ? compiled.matcher : null,
    problem: !filter.ok ? filter.problem : !compiled.ok ? compiled.problem : null,
    addedOnly: c.applies_to.scope === 'added-lines',
    coverageKey: JSON.stringify(c.applies_to),
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
  await loadDetectorKinds(kindsOf(applicableConstraints(index, options.skip)));
  const gate = prepareGate(index, options);
  try {
    return await gate.judge(allFiles);
  } finally {
    gate.close();
  }
}

/** A gate compiled once and applied to several batches of files (hooks/gate-chunks.ts). */
export interface PreparedGate {
  /** runGate's verdict over these files. */
  judge(files: readonly CheckedFile[]): Promise<Diagnostic[]>;
  /** Ends the bounded evaluator's worker thread, if one was started. */
  close(): void;
}

/**
 * Compiles the index's applicable constraints (globs, detectors, prefilter) once, for many
 * batches of files. The detector kinds they use must be loaded (loadDetectorKinds).
 */
export function prepareGate(index: ConstraintIndex, options: GateOptions): PreparedGate {
  const evaluator = new BoundedEvaluator();
  const prepared = applicableConstraints(index, options.skip).map(prepare);
  const matchers = prepared.flatMap((p) => (p.matcher ? [p.matcher] : []));
  // One linear pass per file tells which patterns occur at all; only those are evaluated.
  const prefilter = buildPrefilter(matchers);
  return {
    judge: (files) => judge(prepared, prefilter, files, options, evaluator),
    close: () => evaluator.close(),
  };
}

/** Which files of a batch each constraint covers: one path test per file and distinct applies_to. */
class Coverage {
  private readonly masks = new Map<string, { readonly mask: Uint8Array; readonly count: number }>();

  constructor(private readonly files: readonly CheckedFile[]) {}

  of(p: Prepared): { readonly mask: Uint8Array; readonly count: number } {
    let known = this.masks.get(p.coverageKey);
    if (known === undefined) {
      const mask = new Uint8Array(this.files.length);
      let count = 0;
      this.files.forEach((f, i) => {
        if (p.test!(f.path)) {
          mask[i] = 1;
          count += 1;
        }
      });
      this.masks.set(p.coverageKey, (known = { mask, count }));
    }
    return known;
  }
}

async function judge(
  prepared: readonly Prepared[],
  prefilter: Prefilter,
  allFiles: readonly CheckedFile[],
  options: GateOptions,
  evaluator: BoundedEvaluator,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const files = allFiles.filter((f) => !isGateExempt(f.path));
  const judged = prepared.filter((p) => p.test !== null && p.matcher !== null);
  evaluator.warm(
    judged.map((p) => p.matcher!),
    files.reduce((n, f) => Math.max(n, f.text.length), 0),
    options.budgetMs,
  );
  const coverage = new Coverage(files);
  // Each covered file is prefiltered once. A pattern that occurs nowhere has no hit, and a
  // required pattern that occurs is satisfied; the prefilter is sure of every matcher but its
  // `undecided` ones. Per matcher, the files left to evaluate are collected in file order.
  const anyCovered = new Uint8Array(files.length);
  for (const mask of new Set(judged.map((p) => coverage.of(p).mask))) {
    for (let i = 0; i < mask.length; i += 1) anyCovered[i]! |= mask[i]!;
  }
  const possible = new Map<Matcher, number[]>();
  const decisions = new Array<ReturnType<Prefilter['decide']> | undefined>(files.length);
  for (let i = 0; i < files.length; i += 1) {
    if (anyCovered[i] === 0) continue;
    const d = prefilter.decide(files[i]!.text);
    decisions[i] = d;
    for (const m of d.occurring) at(possible, m).push(i);
    for (const m of d.undecided) if (!d.occurring.has(m)) at(possible, m).push(i);
  }
  /** The files this constraint must evaluate: covered, and not ruled out by the prefilter. */
  const toEvaluate = (p: Prepared, mask: Uint8Array): number[] => {
    const m = p.matcher!;
    if (m.mode === 'must_contain') {
      const left: number[] = [];
      for (let i = 0; i < mask.length; i += 1) {
        if (mask[i] === 0) continue;
        const d = decisions[i]!;
        if (d.undecided.has(m) || !d.occurring.has(m)) left.push(i);
      }
      return left;
    }
    return (possible.get(m) ?? []).filter((i) => mask[i] === 1);
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
    // An entry's own problems are reported at its line, in the file that holds it.
    const where = (): [string, number] =>
      originOf(c) === 'extended'
        ? [Layout.extendedIndex, indexEntryLine(options.extendedText ?? '', c.id)]
        : [options.indexFile, indexEntryLine(options.indexText, c.id)];
    if (p.test === null) {
      // The glob itself is broken: we cannot tell which files it covers, so it fails closed whenever anything is checked.
      if (files.length > 0) out.push(evaluationError(...where(), p.problem ?? 'bad applies_to'));
      continue;
    }
    const { mask, count } = coverage.of(p);
    if (count === 0) continue;
    if (p.matcher === null) {
      out.push(evaluationError(...where(), p.problem ?? 'bad detector'));
      continue;
    }
    for (const i of toEvaluate(p, mask)) {
      const f = files[i]!;
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

function at<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (list === undefined) map.set(key, (list = []));
  return list;
}

/** True when any applicable constraint is change-scoped (so added lines are worth computing). */
export function needsAddedLines(index: ConstraintIndex, skip: ReadonlySet<string>): boolean {
  return applicableConstraints(index, skip).some((c) => c.applies_to.scope === 'added-lines');
}

/** Paths an added-lines constraint covers (to limit the patch to them). */
export function addedLinePaths(index: ConstraintIndex, skip: ReadonlySet<string>, paths: readonly string[]): string[] {
  const tests = applicableConstraints(index, skip)
    .filter((c) => c.applies_to.scope === 'added-lines')
    .map((c) => entryPathFilter(c, { requireGlobs: false }))
    .flatMap((f) => (f.ok ? [f.test] : []));
  return paths.filter((p) => tests.some((t) => t(p)));
}
