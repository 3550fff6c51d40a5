/**
 * One `git rev-parse` for what a commit hook needs to know about the repository's state: the
 * commit HEAD names (null before the first commit) and the multi-step operation in progress.
 * Each git process costs node a fork of its whole heap plus git's own start (docs/hooks.md
 * "Speed"), so the hook asks both questions at once instead of one process each.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runGit } from './core.js';
import type { Operation } from './hooks.js';

/** The state files of each operation, in the order git's own status checks them. */
const OPERATION_FILES: readonly (readonly [string, Operation])[] = [
  ['rebase-merge', 'rebase'],
  ['rebase-apply', 'rebase'],
  ['MERGE_HEAD', 'merge'],
  ['CHERRY_PICK_HEAD', 'cherry-pick'],
  ['REVERT_HEAD', 'revert'],
];

export interface CommitState {
  /** The full sha of HEAD's commit, or null (an unborn branch, or HEAD not naming a commit). */
  readonly head: string | null;
  /** The multi-step operation in progress in this worktree, or null. */
  readonly operation: Operation | null;
}

/**
 * `git rev-parse --git-path <f>… --verify --quiet HEAD^{commit}`: git prints the state-file
 * paths first and then the sha; when HEAD does not resolve it still prints the paths and exits 1.
 */
export async function commitState(root: string): Promise<CommitState> {
  const r = await runGit(root, [
    'rev-parse',
    ...OPERATION_FILES.flatMap(([f]) => ['--git-path', f]),
    '--verify',
    '--quiet',
    'HEAD^{commit}',
  ]);
  if (r.code !== 0 && r.code !== 1) return { head: null, operation: null };
  const lines = r.stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '');
  if (lines.length < OPERATION_FILES.length) return { head: null, operation: null };
  const head = r.code === 0 ? (lines[OPERATION_FILES.length] ?? null) : null;
  return { head, operation: operationFrom(root, lines) };
}

function operationFrom(root: string, paths: readonly string[]): Operation | null {
  for (let k = 0; k < OPERATION_FILES.length; k += 1) {
    const p = paths[k];
    if (p !== undefined && existsSync(path.resolve(root, p))) return OPERATION_FILES[k]![1];
  }
  return null;
}
