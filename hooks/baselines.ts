/**
 * The gate's use of constraint baselines (docs/lifecycle.md, "Baseline"): a hit whose line is in
 * its constraint's baseline (and within the recorded count) is reported as baselined and does not
 * count. The baseline is read from the same source as the constraint index — the git index for
 * staged content, the checked commit for a range or tree, the working tree for `--all` and
 * `--worktree` — and only for constraints that have hits, so a clean check reads nothing more.
 */
import type { Diagnostic } from '../src/diagnostics.js';
import { readIfExists } from '../src/fs/atomic.js';
import { readObjects } from '../src/git/core.js';
import { repoTarget } from '../src/fs/repo-write.js';
import { baselinePath, matchBaseline, parseBaseline, type Baseline } from '../src/lifecycle/baseline-file.js';
import type { CheckMode } from './sources.js';
import { hitConstraintId, sameConstraint } from './suppressions.js';

/** Where baselines are read from: a git object name prefix (`:` = the index, `<sha>:`), or the working tree. */
export type BaselineSource = { readonly kind: 'git'; readonly prefix: string } | { readonly kind: 'worktree' };

/** The source matching the mode's constraint index (hooks/sources.ts). Pure. */
export function baselineSourceOf(mode: CheckMode): BaselineSource {
  switch (mode.kind) {
    case 'staged':
      return { kind: 'git', prefix: ':' };
    case 'range':
      return { kind: 'git', prefix: `${mode.to}:` };
    case 'tree':
      return { kind: 'git', prefix: `${mode.commit}:` };
    case 'paths':
      return mode.worktree ? { kind: 'worktree' } : { kind: 'git', prefix: ':' };
    case 'all':
      return { kind: 'worktree' };
  }
}

/** Both id forms (`c-<finding-id>` and `<finding-id>`): a baseline recorded under either is found. Pure. */
export function baselineNames(id: string): string[] {
  return [...new Set([id, id.startsWith('c-') ? id.slice(2) : `c-${id}`])];
}

/**
 * Marks baselined hits (`suppressed: {kind: 'baseline'}`). `baselines` maps a constraint id to its
 * baseline; an id without one keeps all its hits. Hits are taken in the diagnostics' order
 * (file, line, column), so the first copies of a line fill its count. Pure.
 */
export function applyBaselines(
  diagnostics: readonly Diagnostic[],
  texts: ReadonlyMap<string, string>,
  baselines: ReadonlyMap<string, { file: string; baseline: Baseline }>,
): Diagnostic[] {
  const lines = new Map<string, string[]>();
  const lineOf = (file: string, line: number): string => {
    let split = lines.get(file);
    if (!split) lines.set(file, (split = (texts.get(file) ?? '').split('\n')));
    return split[line - 1] ?? '';
  };
  const candidates = new Map<string, { index: number; path: string; lineText: string }[]>();
  diagnostics.forEach((d, index) => {
    const id = hitConstraintId(d);
    if (id === null || d.suppressed !== undefined || !baselines.has(id)) return;
    const list = candidates.get(id) ?? [];
    list.push({ index, path: d.file, lineText: lineOf(d.file, d.line) });
    candidates.set(id, list);
  });
  const marked = new Map<number, string>();
  for (const [id, hits] of candidates) {
    const { file, baseline } = baselines.get(id)!;
    for (const h of matchBaseline(baseline, hits).baselined) marked.set(h.index, file);
  }
  return diagnostics.map((d, i) =>
    marked.has(i) ? { ...d, suppressed: { kind: 'baseline', reason: `in the baseline ${marked.get(i)!}` } } : d,
  );
}

/** Reads the baselines of the constraints with unsuppressed hits and applies them; problems with a baseline are warnings (its hits still count). */
export async function applyBaselinesFrom(
  root: string,
  source: BaselineSource,
  diagnostics: readonly Diagnostic[],
  texts: ReadonlyMap<string, string>,
): Promise<Diagnostic[]> {
  const ids = [
    ...new Set(
      diagnostics
        .filter((d) => d.suppressed === undefined)
        .map(hitConstraintId)
        .filter((id): id is string => id !== null),
    ),
  ].sort();
  if (ids.length === 0) return [...diagnostics];
  const files = ids.flatMap((id) => baselineNames(id).map(baselinePath));
  const read = new Map<string, string>();
  if (source.kind === 'git') {
    // Names with a newline cannot go through cat-file --batch; constraint ids never have one.
    const objects = await readObjects(
      root,
      files.filter((f) => !f.includes('\n')).map((f) => `${source.prefix}${f}`),
    );
    for (const f of files) {
      const data = objects.get(`${source.prefix}${f}`);
      if (data) read.set(f, data.toString('utf8'));
    }
  } else {
    for (const f of files) {
      const data = await readIfExists(repoTarget(root, f));
      if (data !== null) read.set(f, data.toString('utf8'));
    }
  }
  const baselines = new Map<string, { file: string; baseline: Baseline }>();
  const problems: Diagnostic[] = [];
  for (const id of ids) {
    const file = baselineNames(id)
      .map(baselinePath)
      .find((f) => read.has(f));
    if (file === undefined) continue;
    const parsed = parseBaseline(read.get(file)!, file);
    if (!parsed.ok) {
      problems.push(
        ...parsed.diagnostics.map((d) => ({
          ...d,
          severity: 'warning' as const,
          message: `${d.message}; the baseline is ignored, so every hit of ${id} counts`,
        })),
      );
      continue;
    }
    if (!sameConstraint(parsed.baseline.constraint_id, id)) continue;
    baselines.set(id, { file, baseline: parsed.baseline });
  }
  return [...applyBaselines(diagnostics, texts, baselines), ...problems];
}
