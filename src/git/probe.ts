/**
 * One `git rev-parse` for what a commit hook needs to know about the repository: its top level,
 * the commit HEAD names (null before the first commit) and the multi-step operation in progress.
 * Each git process costs node a fork of its whole heap plus git's own start (docs/hooks.md
 * "Speed"), so the hook asks all three questions at once instead of one process each.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runGit } from './core.js';
import type { Operation } from './hooks.js';
import { knowPrefix } from './project-root.js';

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
  /** git's objects folder (absolute; GIT_OBJECT_DIRECTORY when set), where staged blobs are read from (src/git/local-blobs.ts). */
  readonly objects: string | null;
  /** The probed folder's place below the top level ('' there; src/git/project-root.ts), null when git could not tell. */
  readonly prefix: string | null;
}

/** What one probe of the current folder tells a commit hook: the top level, HEAD and the operation. */
export interface RepositoryProbe extends CommitState {
  /** The absolute top level of the work tree the probed folder is in. */
  readonly topLevel: string;
}

const STATE_ARGS: readonly string[] = [
  '--show-prefix',
  ...OPERATION_FILES.flatMap(([f]) => ['--git-path', f]),
  '--git-path',
  'objects',
  '--verify',
  '--quiet',
  'HEAD^{commit}',
];

/**
 * `git rev-parse [--show-toplevel] --show-prefix --git-path <f>… --git-path objects --verify --quiet HEAD^{commit}`:
 * git prints the top level, `cwd`'s prefix below it (an empty line at the top level), then the
 * state-file paths and the objects folder (relative to `cwd`), then the sha; when HEAD does not
 * resolve it still prints the rest and exits 1. Any other exit (128: not a repository, or inside
 * the git folder, where there is no work tree) means there is nothing to probe: null.
 */
async function probe(cwd: string, withTopLevel: boolean): Promise<(CommitState & { topLevel: string | null }) | null> {
  const args = ['rev-parse', ...(withTopLevel ? ['--show-toplevel'] : []), ...STATE_ARGS];
  // Looking for the top level, a folder git cannot even start in is "not a repository" (as topLevel says).
  const r = withTopLevel ? await runGit(cwd, args).catch(() => null) : await runGit(cwd, args);
  if (r === null || (r.code !== 0 && r.code !== 1)) return null;
  const lines = r.stdout.toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const prefixAt = withTopLevel ? 1 : 0;
  const first = prefixAt + 1;
  const paths = first + OPERATION_FILES.length + 1;
  if (lines.length < paths || lines.slice(first, paths).some((l) => l === '')) return null;
  const head = r.code === 0 ? (lines[paths] ?? null) : null;
  const objects = path.resolve(cwd, lines[paths - 1]!);
  const prefix = lines[prefixAt]!;
  return { topLevel: withTopLevel ? lines[0]! : null, head, operation: operationFrom(cwd, lines.slice(first)), objects, prefix };
}

/**
 * The top level, HEAD and operation of the work tree `cwd` is in, from one process (the hook's
 * first; the CLI takes its root from it), or null outside a work tree.
 */
export async function probeRepository(cwd: string): Promise<RepositoryProbe | null> {
  const found = await probe(cwd, true);
  return found === null || found.topLevel === null
    ? null
    : { topLevel: found.topLevel, head: found.head, operation: found.operation, objects: found.objects, prefix: found.prefix };
}

/** HEAD and the operation in progress at `root`; both null when git cannot tell. */
export async function commitState(root: string): Promise<CommitState> {
  const found = await probe(root, false);
  if (found === null) return { head: null, operation: null, objects: null, prefix: null };
  // Every later git process at this root converts the paths it prints with it (src/git/project-root.ts).
  if (found.prefix !== null) knowPrefix(root, found.prefix);
  return found;
}

/** The operation in progress in the worktree whose git folder is `gitDir` (its state files there). */
export function operationIn(gitDir: string): Operation | null {
  return operationFrom(
    gitDir,
    OPERATION_FILES.map(([f]) => f),
  );
}

function operationFrom(cwd: string, paths: readonly string[]): Operation | null {
  for (let k = 0; k < OPERATION_FILES.length; k += 1) {
    const p = paths[k];
    if (p !== undefined && existsSync(path.resolve(cwd, p))) return OPERATION_FILES[k]![1];
  }
  return null;
}
