/**
 * `findings constraint baseline <id> [--prune]` (docs/lifecycle.md, "Baseline"): records the
 * violations of the tracked files at HEAD — what `check --all` and `activate` judge — in
 * `.agents/constraints/baselines/<id>.json`, under compile.lock through the atomic writer.
 * `--prune` keeps only the recorded entries that still occur (never adds one).
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { loadConfig } from '../config.js';
import { readIfExists } from '../fs/atomic.js';
import { writeRepoFileIfChanged } from '../fs/repo-write.js';
import { resolveCommit } from '../git/core.js';
import { Layout } from '../layout.js';
import { worktreeFiles } from '../repo-files.js';
import {
  baselinePath,
  baselineSize,
  buildBaseline,
  parseBaseline,
  pruneBaseline,
  serializeBaseline,
  type Baseline,
  type BaselineParse,
} from './baseline-file.js';
import { scanTree } from './current-tree.js';
import { prepare } from './replay.js';
import { indexProblem, inside, readIndex, withCompileLock } from './store.js';
import { fileOf } from '../constraints/constraint-set.js';

export interface BaselineResult {
  readonly diagnostics: Diagnostic[];
  /** The file written (or left unchanged), or null when nothing was recorded. */
  readonly file: string | null;
  readonly state: 'created' | 'updated' | 'unchanged' | null;
  readonly violations: number;
  readonly files: number;
  /** With --prune: how many recorded violations no longer occur and were dropped. */
  readonly dropped?: number;
}

/** Reads a baseline from the working tree: null when absent. */
export async function readBaselineFile(root: string, id: string): Promise<BaselineParse | null> {
  const rel = baselinePath(id);
  const data = await readIfExists(inside(root, rel));
  return data === null ? null : parseBaseline(data.toString('utf8'), rel);
}

const refused = (diagnostics: Diagnostic[]): BaselineResult => ({ diagnostics, file: null, state: null, violations: 0, files: 0 });

export async function recordBaseline(root: string, id: string, options: { prune: boolean }): Promise<BaselineResult> {
  const { config, diagnostics: configProblems } = await loadConfig(worktreeFiles(root));
  return withCompileLock(root, async () => {
    const read = await readIndex(root);
    if (read.kind !== 'ok') return refused(indexProblem(read));
    const entry = read.index.constraints.find((c) => c.id === id);
    if (!entry)
      return refused([
        diagnostic({ file: Layout.constraintIndex, ruleId: 'lifecycle/unknown-constraint', message: `no constraint "${id}" in the index` }),
      ]);
    const prepared = prepare(entry);
    if (!prepared.ok)
      return refused([
        diagnostic({
          file: fileOf(entry),
          ruleId: 'lifecycle/unusable-detector',
          message: `cannot baseline ${id}: ${prepared.problem}`,
        }),
      ]);
    const head = await resolveCommit(root, 'HEAD');
    if (head === null)
      return refused([
        diagnostic({
          file: Layout.constraintIndex,
          ruleId: 'lifecycle/no-head',
          message: `cannot baseline ${id}: there is no commit yet (the baseline records the tracked files at HEAD)`,
        }),
      ]);
    const scan = await scanTree(root, head, prepared, config.matchBudgetMs);
    // A file that cannot be evaluated gets no entry, so its hits still count at the gate (fail closed).
    const warnings = scan.errors.map((e) =>
      diagnostic({
        file: e.path,
        line: 1,
        severity: 'warning',
        ruleId: 'lifecycle/baseline-evaluation-error',
        message: `${e.message}; nothing recorded for this file`,
      }),
    );
    const current = buildBaseline(
      id,
      scan.violations.map((v) => ({ path: v.path, lineText: v.lineText })),
    );
    let next: Baseline = current;
    let dropped: number | undefined;
    if (options.prune) {
      const old = await readBaselineFile(root, id);
      if (old === null)
        return refused([
          diagnostic({
            file: baselinePath(id),
            ruleId: 'lifecycle/no-baseline',
            message: `there is no baseline for ${id} to prune; record one with \`findings constraint baseline ${id}\``,
          }),
        ]);
      if (!old.ok) return refused(old.diagnostics);
      ({ baseline: next, dropped } = pruneBaseline(old.baseline, current));
    }
    const file = baselinePath(id);
    const state = await writeRepoFileIfChanged(root, file, serializeBaseline(next));
    return {
      diagnostics: [...configProblems, ...warnings],
      file,
      state,
      ...baselineSize(next),
      ...(dropped !== undefined ? { dropped } : {}),
    };
  });
}
