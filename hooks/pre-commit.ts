/**
 * `findings hook pre-commit` (docs/hooks.md), on staged content only and in this order:
 *  1–2. staged registry, artifacts and constraint index: the `findings validate` rules on their
 *       staged versions (errors block);
 *  3.   the constraint gate over the staged files;
 *  4.   when a finding source is staged: compiled outputs in the index must equal what compiling
 *       the staged sources gives.
 * It only reads (git diff, cat-file): the working tree and the index are never modified.
 * The same checks run as `findings hook pre-merge-commit` for a conflict-free `git merge`. The
 * commit of a merge, rebase, cherry-pick or revert is blocked only by what it introduces
 * (hooks/operation-gate.ts).
 */
import { diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { mergeHeadsFromEnv, type Operation } from '../src/git/hooks.js';
import { isConstraintFile } from '../src/constraints/constraint-set.js';
import { Layout } from '../src/layout.js';
import type { RepoFiles } from '../src/repo-files.js';
import { checkConstraints } from './check.js';
import { parseSkip } from './skip.js';
import { stagedSnapshot, type Probed } from './snapshot.js';
import { compiledDrift, FIX_COMMAND } from './compiler-link.js';
import { finish, type HookOutcome } from './outcome.js';

const ARTIFACT = /^\.agents\/findings\/[^/]+\.md$/;
const REVIEW_FILE = /^\.agents\/reviews\/[^/]+\.(?:jsonl|md)$/;

/** Staged paths that `findings validate` has rules for in steps 1–2. Pure. */
export function validationPaths(changed: readonly string[]): string[] {
  // A staged ledger or note: its note is checked against the staged ledger (review/stale-note).
  const notes = changed.filter((p) => REVIEW_FILE.test(p)).map((p) => p.replace(/\.jsonl$/, '.md'));
  return [...new Set([...changed.filter((p) => p === Layout.registry || ARTIFACT.test(p) || isConstraintFile(p)), ...notes])].sort();
}

/** True for the inputs of compilation (docs/contracts/compiler.md#promotion): the findings folder and constraint fixtures. Pure. */
export function isFindingSource(p: string): boolean {
  // A `.gitkeep` (from `findings init`) is layout, not a source: there is nothing to compile yet.
  if (p.endsWith('/.gitkeep')) return false;
  return p.startsWith(`${Layout.findingsDir}/`) || p.startsWith(`${Layout.fixturesDir}/`);
}

export const COMMIT_BYPASS = 'git commit --no-verify';
export const MERGE_BYPASS = 'git merge --no-verify';

/** Which hook runs the checks: pre-commit, or pre-merge-commit for a conflict-free `git merge`. */
export type CommitHook = 'pre-commit' | 'pre-merge-commit';

/**
 * The operation whose commit this is. During pre-merge-commit git has not written MERGE_HEAD yet;
 * the merged heads are in the environment (src/git/hooks.ts mergeHeadsFromEnv).
 */
function currentOperation(found: Operation | null, env: NodeJS.ProcessEnv, hook: CommitHook): Operation | null {
  if (found !== null) return found;
  return hook === 'pre-merge-commit' || mergeHeadsFromEnv(env).length > 0 ? 'merge' : null;
}

/** `probed`: HEAD, the operation and the early reads, when the caller probed them with the root (src/cli/commit-hook.ts). */
export async function preCommit(
  root: string,
  env: NodeJS.ProcessEnv,
  hook: CommitHook = 'pre-commit',
  probed?: Probed,
): Promise<HookOutcome> {
  const skip = parseSkip(env);
  if (skip.all || env['HUSKY'] === '0') {
    return { diagnostics: [], lines: [`findings: ${hook} checks skipped (${skip.all ? 'FINDINGS_SKIP=all' : 'HUSKY=0'})`], blocked: false };
  }
  const bypass = hook === 'pre-merge-commit' ? MERGE_BYPASS : COMMIT_BYPASS;
  // One snapshot for every step (hooks/snapshot.ts).
  const snapshot = await stagedSnapshot(root, probed);
  const { collected } = snapshot;
  const operation = currentOperation(snapshot.operation, env, hook);
  const diagnostics: Diagnostic[] = [];
  const lines: string[] = [];

  const toValidate = validationPaths(collected.changedPaths);
  if (toValidate.length > 0) {
    const { validateFiles } = await import('../src/validate/index.js');
    diagnostics.push(...(await validateFiles(toValidate, { root, files: snapshot.staged, commit: null })));
  }

  const check = await checkConstraints(root, { kind: 'staged' }, { skip: skip.ids, bypass, collected });
  lines.push(...check.lines);
  if (check.status === 'no-index')
    lines.push('findings: no constraint index staged (.agents/constraints/index.json); no constraints to check');
  else if (check.status === 'invalid-index' && toValidate.some(isConstraintFile) && diagnostics.some((d) => isConstraintFile(d.file))) {
    // Step 2 already reported the staged constraint files; do not say it twice.
  } else diagnostics.push(...check.diagnostics);
  if (check.status === 'invalid-index') lines.push('findings: the staged constraint index is invalid, so no constraint was checked');

  if ([...collected.changedPaths, ...collected.deletedPaths].some(isFindingSource)) {
    diagnostics.push(...(await driftDiagnostics(snapshot.staged, bypass)));
  }

  if (operation !== null) {
    lines.push(
      `findings: a ${operation} is in progress: what this commit introduces blocks; what a parent's version already had is a warning`,
    );
    const { judgeOperationCommit } = await import('./operation-gate.js');
    return finish(await judgeOperationCommit(root, operation, env, diagnostics, collected, skip.ids), lines);
  }
  return finish(diagnostics, lines);
}

/** Step 4: compiled outputs in the index versus compiling the staged sources. */
async function driftDiagnostics(staged: RepoFiles, bypass: string): Promise<Diagnostic[]> {
  const result = await compiledDrift(staged);
  const notes = [`fix: ${FIX_COMMAND}`, `bypass: ${bypass}`];
  return [
    ...result.diagnostics,
    ...result.drift.map((d) =>
      diagnostic({
        file: d.path,
        ruleId: 'compiler/drift',
        message:
          d.kind === 'missing'
            ? 'compiled output is missing from the index: compiling the staged sources writes it'
            : d.kind === 'stale'
              ? 'compiled output in the index differs from what compiling the staged sources gives'
              : 'compiled output in the index has no source any more',
        notes,
      }),
    ),
  ];
}
