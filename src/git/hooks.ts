/**
 * git helpers for the hooks area (ARCHITECTURE.md "git": area helpers build on runGit/git).
 * Everything here runs plain child_process through src/git/core.ts, so GIT_INDEX_FILE set by
 * `git commit -a` / `git commit <paths>` reaches every child (docs/stack-pitfalls.md#4).
 */
import { fsPromises } from '../lazy-builtins.js';
import path from 'node:path';
import type { TopLevelPath } from '../paths.js';
import { git, runGit } from './core.js';
import { commitState } from './probe.js';
import { asTopLevel, rootPathOf, rootPrefix } from './project-root.js';

/** Added line numbers (1-based, in the new version) per root-relative path. */
export type AddedLines = Map<string, Set<number>>;

/** Options that make patch output independent of the user's diff configuration. */
const PATCH_ARGS = [
  '-c',
  'core.quotePath=false',
  'diff',
  '-U0',
  '-M',
  '--text',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--no-relative',
];

/** Lines added by the staged change (index against `base`: HEAD or the empty tree). */
export async function stagedAddedLines(root: string, base: string, paths: readonly string[]): Promise<AddedLines> {
  if (paths.length === 0) return new Map();
  const out = await git(root, [...PATCH_ARGS, '--cached', base, ...pathspecs(paths)]);
  return atRoot(parseAddedLines(out), await rootPrefix(root));
}

/** Lines added between two commits. */
export async function rangeAddedLines(root: string, from: string, to: string, paths: readonly string[]): Promise<AddedLines> {
  if (paths.length === 0) return new Map();
  const out = await git(root, [...PATCH_ARGS, from, to, ...pathspecs(paths)]);
  return atRoot(parseAddedLines(out), await rootPrefix(root));
}

/** The added lines of the project root's files, by root-relative path (src/git/project-root.ts). Pure. */
function atRoot(lines: ReadonlyMap<TopLevelPath, Set<number>>, prefix: string): AddedLines {
  const out: AddedLines = new Map();
  for (const [p, added] of lines) {
    const rel = rootPathOf(p, prefix);
    if (rel !== null) out.set(rel, added);
  }
  return out;
}

/**
 * Literal pathspecs (no glob magic, even for `*` or `:` in names). Callers include the old path
 * of a rename so rename detection still pairs it. Past a few thousand paths the whole diff is
 * cheaper than a long argument list, and parsing ignores the paths nobody asked about.
 */
function pathspecs(paths: readonly string[]): string[] {
  // A name that is not valid UTF-8 was decoded with U+FFFD and no longer names the file: ask for
  // the whole diff instead (its paths decode the same way, so they still match).
  if (paths.length > 2000 || paths.some((p) => p.includes('\uFFFD'))) return [];
  return ['--', ...paths.map((p) => `:(literal)${p}`)];
}

/**
 * Parses `git diff -U0` patch output into added line numbers per new path. Pure.
 * The new path comes from the `+++ b/<path>` line (C-quoted by git when it holds special
 * characters); hunk bodies are skipped by their counts, so an added line that itself starts
 * with `++ b/` is never mistaken for a header.
 */
export function parseAddedLines(out: Buffer | string): Map<TopLevelPath, Set<number>> {
  const text = typeof out === 'string' ? out : out.toString('utf8');
  const lines = text.split('\n');
  const result = new Map<TopLevelPath, Set<number>>();
  let current: Set<number> | null = null;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    i += 1;
    if (line.startsWith('diff --git ')) {
      current = null;
      continue;
    }
    if (line.startsWith('+++ ')) {
      // git appends a TAB after a name that contains spaces (for patch(1)); it is not part of the name.
      const name = line.slice(4).replace(/\t$/, '');
      if (name === '/dev/null') {
        current = null;
        continue;
      }
      const unquoted = name.startsWith('"') ? unquoteC(name) : name;
      const file = asTopLevel(unquoted.startsWith('b/') ? unquoted.slice(2) : unquoted);
      current = result.get(file) ?? new Set<number>();
      result.set(file, current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      const oldCount = hunk[1] === undefined ? 1 : Number(hunk[1]);
      const start = Number(hunk[2]);
      const newCount = hunk[3] === undefined ? 1 : Number(hunk[3]);
      if (current) for (let n = 0; n < newCount; n += 1) current.add(start + n);
      // Skip the body: oldCount '-' lines and newCount '+' lines, plus "\ No newline" markers.
      let remaining = oldCount + newCount;
      while (remaining > 0 && i < lines.length) {
        const body = lines[i]!;
        i += 1;
        if (body.startsWith('\\')) continue;
        remaining -= 1;
      }
      while (i < lines.length && lines[i]!.startsWith('\\')) i += 1;
    }
  }
  return result;
}

/** Undoes git's C-style quoting of a path (`"a\tb\303\251"`). Pure. */
export function unquoteC(quoted: string): string {
  const body = quoted.slice(1);
  const bytes: number[] = [];
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i]!;
    if (ch === '"') break; // the closing quote
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export type Operation = 'merge' | 'rebase' | 'cherry-pick' | 'revert';

/** The multi-step operation in progress in this worktree (merge, rebase, …), or null. */
export async function operationInProgress(root: string): Promise<Operation | null> {
  return (await commitState(root)).operation;
}

/** A parent whose version of a file a commit in a multi-step operation may carry over. */
export interface OperationParent {
  /** How git names it: `HEAD`, `MERGE_HEAD`, `CHERRY_PICK_HEAD`, `REBASE_HEAD`, `REVERT_HEAD^`. */
  readonly name: string;
  readonly sha: string;
}

/**
 * The commits being merged by `git merge` while its pre-merge-commit hook runs. git has not
 * written MERGE_HEAD yet at that point, but it exports `GITHEAD_<sha>=<name>` for each merged
 * head (the labels of merge strategies). Pure.
 */
export function mergeHeadsFromEnv(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .flatMap((k) => {
      const m = /^GITHEAD_([0-9a-f]{40,64})$/.exec(k);
      return m ? [m[1]!] : [];
    })
    .sort();
}

/**
 * The parents of the commit an operation is about to make: HEAD, plus what is merged
 * (MERGE_HEAD, one line per head; or GITHEAD_* during pre-merge-commit), picked
 * (CHERRY_PICK_HEAD, REBASE_HEAD) or restored by a revert (REVERT_HEAD's parent).
 */
export async function operationParents(root: string, op: Operation, env: NodeJS.ProcessEnv): Promise<OperationParent[]> {
  const out: OperationParent[] = [];
  const verify = async (name: string): Promise<string | null> => {
    const r = await runGit(root, ['rev-parse', '--verify', '--quiet', `${name}^{commit}`]);
    return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
  };
  const head = await verify('HEAD');
  if (head !== null) out.push({ name: 'HEAD', sha: head });
  if (op === 'merge') {
    const r = await runGit(root, ['rev-parse', '--git-path', 'MERGE_HEAD']);
    let text = '';
    try {
      text = r.code === 0 ? await fsPromises().readFile(path.resolve(root, r.stdout.toString('utf8').trim()), 'utf8') : '';
    } catch {
      text = '';
    }
    const heads = [
      ...text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => /^[0-9a-f]{40,64}$/.test(l)),
      ...mergeHeadsFromEnv(env),
    ];
    for (const sha of [...new Set(heads)]) out.push({ name: 'MERGE_HEAD', sha });
  } else {
    const name = op === 'cherry-pick' ? 'CHERRY_PICK_HEAD' : op === 'rebase' ? 'REBASE_HEAD' : 'REVERT_HEAD^';
    const sha = await verify(name);
    if (sha !== null) out.push({ name, sha });
  }
  return out;
}

/** The commit a remote's default branch points at (`refs/remotes/<remote>/HEAD`), or null. */
export async function remoteDefaultBranch(root: string, remote: string): Promise<string | null> {
  if (remote === '' || remote.includes('\0')) return null;
  for (const ref of [`refs/remotes/${remote}/HEAD`, `refs/remotes/${remote}/main`, `refs/remotes/${remote}/master`]) {
    const r = await runGit(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    if (r.code === 0) return r.stdout.toString('utf8').trim();
  }
  return null;
}

/** The best common ancestor of two commits, or null. */
export async function mergeBase(root: string, a: string, b: string): Promise<string | null> {
  const r = await runGit(root, ['merge-base', a, b]);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** True when `a` is an ancestor of (or equal to) `b`. */
export async function isAncestor(root: string, a: string, b: string): Promise<boolean> {
  return (await runGit(root, ['merge-base', '--is-ancestor', a, b])).code === 0;
}

/** True when the object exists in the local repository. */
export async function objectExists(root: string, sha: string): Promise<boolean> {
  const r = await runGit(root, ['cat-file', '-e', `${sha}^{commit}`]);
  return r.code === 0;
}

// Set-up inspection for `findings doctor` runs once per invocation, off the commit path, so it
// uses simple-git (with git's environment passed through, src/git/client.ts), imported on first
// use so that the hooks, which import this module, never load it (docs/hooks.md "Speed").
const gitClient = async (root: string) => (await import('./client.js')).gitClient(root);

/** `git config --get <key>` or null. */
export async function gitConfig(root: string, key: string): Promise<string | null> {
  const { value } = await (await gitClient(root)).getConfig(key);
  return value !== null && value.trim() !== '' ? value.trim() : null;
}

/** Where this worktree's hooks live (`git rev-parse --git-path hooks`, honours core.hooksPath), absolute. */
export async function hooksDir(root: string): Promise<string> {
  return path.resolve(root, (await (await gitClient(root)).revparse(['--git-path', 'hooks'])).trim());
}

/** True when `root` is a linked worktree (its git dir differs from the common dir). */
export async function isLinkedWorktree(root: string): Promise<boolean> {
  try {
    const client = await gitClient(root);
    const dir = (await client.revparse(['--absolute-git-dir'])).trim();
    const common = (await client.revparse(['--git-common-dir'])).trim();
    return dir !== '' && common !== '' && path.resolve(root, common) !== path.resolve(dir);
  } catch {
    return false;
  }
}
