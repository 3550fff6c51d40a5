/**
 * The constraint check shared by `findings check`, pre-commit (step 3) and pre-push: collect the
 * files of a mode, read the index from the same source, compute added lines when a constraint is
 * change-scoped, and run the gate.
 */
import { parseConfig } from '../src/config.js';
import type { Diagnostic } from '../src/diagnostics.js';
import { parseConstraintIndex } from '../src/constraints/index-file.js';
import { rangeAddedLines, stagedAddedLines, type AddedLines } from '../src/git-hooks.js';
import { Layout } from '../src/layout.js';
import { addedLinePaths, needsAddedLines, runGate, type CheckedFile } from './gate.js';
import { collect, type CheckMode, type Collected } from './sources.js';

export type CheckOutcome =
  | { readonly status: 'no-index'; readonly collected: Collected; readonly diagnostics: Diagnostic[] }
  | { readonly status: 'invalid-index'; readonly collected: Collected; readonly diagnostics: Diagnostic[] }
  | { readonly status: 'checked'; readonly collected: Collected; readonly diagnostics: Diagnostic[]; readonly constraints: number };

export interface CheckOptions {
  readonly skip: ReadonlySet<string>;
  readonly bypass: string | null;
  /** An already collected source (pre-commit reuses its collection). */
  readonly collected?: Collected;
}

/** Runs the gate over a mode; never throws for bad user content (an invalid index is an outcome). */
export async function checkConstraints(root: string, mode: CheckMode, options: CheckOptions): Promise<CheckOutcome> {
  const collected = options.collected ?? (await collect(root, mode));
  if (collected.indexText === null) return { status: 'no-index', collected, diagnostics: [] };
  const parsed = parseConstraintIndex(collected.indexText, Layout.constraintIndex);
  if (!parsed.ok) return { status: 'invalid-index', collected, diagnostics: [...parsed.diagnostics] };
  const config = collected.configText === null ? null : parseConfig(collected.configText);
  const budgetMs = config?.config.matchBudgetMs ?? 250;
  let added: AddedLines | null = null;
  if (collected.diffBase && needsAddedLines(parsed.index, options.skip)) {
    const wanted = addedLinePaths(parsed.index, options.skip, collected.files.map((f) => f.path));
    const withOld = [...wanted, ...collected.files.filter((f) => f.oldPath !== undefined && wanted.includes(f.path)).map((f) => f.oldPath!)];
    const { from, to } = collected.diffBase;
    added = to === null ? await stagedAddedLines(root, from, withOld) : await rangeAddedLines(root, from, to, withOld);
  }
  const files: CheckedFile[] = collected.files.map((f) => ({
    path: f.path,
    text: f.data.toString('utf8'),
    // In a change mode a file without added lines (a pure rename, a mode change) adds nothing.
    added: added ? (added.get(f.path) ?? new Set<number>()) : undefined,
  }));
  const diagnostics = runGate(parsed.index, files, { budgetMs, skip: options.skip, bypass: options.bypass, indexFile: Layout.constraintIndex, indexText: collected.indexText });
  return { status: 'checked', collected, diagnostics: [...(config?.diagnostics ?? []), ...diagnostics], constraints: parsed.index.constraints.filter((c) => c.status !== 'retired').length };
}

/** FINDINGS_SKIP: `all`, or a comma-separated list of constraint ids. Pure. */
export function parseSkip(env: NodeJS.ProcessEnv): { all: boolean; ids: Set<string> } {
  const raw = env['FINDINGS_SKIP'] ?? '';
  const ids = new Set(raw.split(',').map((s) => s.trim()).filter((s) => s !== ''));
  return { all: ids.has('all'), ids };
}
