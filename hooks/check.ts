/**
 * The constraint check shared by `findings check`, pre-commit (step 3) and pre-push: collect the
 * files of a mode, read the index from the same source, compute added lines when a constraint is
 * change-scoped, and run the gate.
 */
import { parseConfig } from '../src/config.js';
import type { Diagnostic } from '../src/diagnostics.js';
import { hasConstraintFiles, parseConstraintSet, sameConstraintTexts, type ConstraintTexts } from '../src/constraints/constraint-set.js';
import { rangeAddedLines, stagedAddedLines, type AddedLines } from '../src/git/hooks.js';
import { Layout } from '../src/layout.js';
import type { ConstraintEntry, ConstraintIndex } from '../src/types.js';
import { addedLinePaths, applicableConstraints, needsAddedLines, type CheckedFile } from './gate.js';
import { runGateInChunks } from './gate-chunks.js';
import { stricterJudgment } from './judgment.js';
import { applySuppressions } from './suppressions.js';
import { applyBaselinesFrom, baselineSourceOf } from './baselines.js';
import { withChecklistNotes } from './checklist.js';
import { binarySkipWarnings, reportSkip } from './skip-report.js';
import { collect, constraintTexts, type CheckMode, type Collected } from './sources.js';

export type CheckOutcome =
  | { readonly status: 'no-index'; readonly collected: Collected; readonly diagnostics: Diagnostic[]; readonly lines: string[] }
  | { readonly status: 'invalid-index'; readonly collected: Collected; readonly diagnostics: Diagnostic[]; readonly lines: string[] }
  | {
      readonly status: 'checked';
      readonly collected: Collected;
      readonly diagnostics: Diagnostic[];
      readonly constraints: number;
      readonly lines: string[];
      /** The entries that judged the change (the index after it, then the ones held from before it), for output metadata. */
      readonly judged: readonly ConstraintEntry[];
    };

export interface CheckOptions {
  readonly skip: ReadonlySet<string>;
  readonly bypass: string | null;
  /** An already collected source (pre-commit reuses its collection). */
  readonly collected?: Collected;
  /** Files checked so far of all, after each chunk of a long check (the CLI draws them on a TTY). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** The constraint set before the change, or null (absent, no "before", or unreadable: the set after it then judges alone). */
function beforeIndex(texts: ConstraintTexts | null): ConstraintIndex | null {
  if (texts === null) return null;
  const parsed = parseConstraintSet(texts);
  return parsed.ok ? parsed.index : null;
}

/** Runs the gate over a mode; never throws for bad user content (an invalid index is an outcome). */
export async function checkConstraints(root: string, mode: CheckMode, options: CheckOptions): Promise<CheckOutcome> {
  const collected = options.collected ?? (await collect(root, mode));
  // Both constraint files (index.json and extended.json) are one set of entries (src/constraints/constraint-set.ts).
  const sets = constraintTexts(collected);
  // Constraint files the change leaves as they are (the usual commit) are parsed once: the set
  // before it then holds nothing back that the set after it does not apply (hooks/judgment.ts).
  const before = sets.before !== null && sameConstraintTexts(sets.before, sets.after) ? null : beforeIndex(sets.before);
  // A change that deletes the files is still judged by the set before it.
  if (!hasConstraintFiles(sets.after) && before === null) return { status: 'no-index', collected, diagnostics: [], lines: [] };
  const parsed = parseConstraintSet(sets.after);
  if (!parsed.ok) return { status: 'invalid-index', collected, diagnostics: [...parsed.diagnostics], lines: [] };
  const judgment = stricterJudgment(before, parsed.index);
  const index = judgment.index;
  const config = collected.configText === null ? null : parseConfig(collected.configText);
  const budgetMs = config?.config.matchBudgetMs ?? 250;
  const skipReport = reportSkip(options.skip, [...index.constraints, ...(before?.constraints ?? [])]);
  let added: AddedLines | null = null;
  if (collected.diffBase && needsAddedLines(index, options.skip)) {
    const wanted = addedLinePaths(
      index,
      options.skip,
      collected.files.map((f) => f.path),
    );
    const withOld = [
      ...wanted,
      ...collected.files.filter((f) => f.oldPath !== undefined && wanted.includes(f.path)).map((f) => f.oldPath!),
    ];
    const { from, to } = collected.diffBase;
    added = to === null ? await stagedAddedLines(root, from, withOld) : await rangeAddedLines(root, from, to, withOld);
  }
  const files: CheckedFile[] = collected.files.map((f) => ({
    path: f.path,
    text: f.data.toString('utf8'),
    // In a change mode a file without added lines (a pure rename, a mode change) adds nothing.
    added: added ? (added.get(f.path) ?? new Set<number>()) : undefined,
  }));
  const hits = await runGateInChunks(
    index,
    files,
    {
      budgetMs,
      skip: options.skip,
      bypass: options.bypass,
      indexFile: Layout.constraintIndex,
      indexText: sets.after.index ?? '',
      extendedText: sets.after.extended ?? '',
      held: judgment.held,
    },
    { onProgress: options.onProgress },
  );
  // Inline markers next to a hit (docs/hooks.md, "Inline suppressions"); a clean check reads nothing more.
  // Then the constraints' baselines, read only for constraints with hits (docs/lifecycle.md, "Baseline"),
  // and the checklist items of the findings hit (read from their artifacts only when there is a hit).
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const kept = hits.length === 0 ? hits : await applyBaselinesFrom(root, baselineSourceOf(mode), applySuppressions(hits, texts), texts);
  const diagnostics = await withChecklistNotes(kept, index, root, collected.contentSource);
  const binaries = collected.skipped.filter((s) => s.reason === 'binary').map((s) => s.path);
  return {
    status: 'checked',
    collected,
    diagnostics: [
      ...(config?.diagnostics ?? []),
      ...skipReport.diagnostics,
      ...binarySkipWarnings(index, options.skip, binaries),
      ...diagnostics,
    ],
    constraints: new Set(applicableConstraints(index, new Set()).map((c) => c.id)).size,
    lines: skipReport.lines,
    judged: index.constraints,
  };
}
