/**
 * The only module that runs git. Hot paths (hooks) use plain child_process so that git's own
 * environment — above all GIT_INDEX_FILE during `git commit -a` / `git commit <paths>` — reaches
 * every git process we start (docs/stack-pitfalls.md#4). simple-git, used for the rest, lives in
 * src/git/client.ts so that importing this module (every command does, for GitError) does not
 * load it: the hooks never need it (docs/hooks.md "Speed").
 */
import { execFile } from 'node:child_process';
import { brandErrorClass } from '../exit-codes.js';
import type { RootPath, TopLevelPath } from '../paths.js';
import { asTopLevel, gitObjectName, rootPathOf, rootPrefix, topLevelOf, topLevelText } from './project-root.js';

export interface GitResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(
    readonly args: readonly string[],
    readonly code: number,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (exit ${code}): ${stderr.trim()}`);
  }
}
brandErrorClass(GitError, 'GitError');

/**
 * What git reads with replacements off and grafts ignored: `git replace` and `.git/info/grafts`
 * change what `cat-file`, `diff` and `log` show, but not what `git commit` records or `git push`
 * sends, so a judgment read through them would judge other content than the commit's
 * (docs/stack-pitfalls.md#18, docs/hooks.md "What a change can and cannot do to its own judgment").
 * A graft file that cannot hold a line (the null device) stands in for the repository's.
 */
export const NO_REPLACEMENTS: Readonly<Record<string, string>> = {
  GIT_NO_REPLACE_OBJECTS: '1',
  GIT_GRAFT_FILE: process.platform === 'win32' ? '\\\\.\\nul' : '/dev/null',
};

/**
 * The environment git children get: ours, untouched (it carries GIT_INDEX_FILE, GIT_DIR, …), with
 * replacements off and grafts ignored (NO_REPLACEMENTS), then `extra` laid over it.
 */
export function gitEnv(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...process.env, ...NO_REPLACEMENTS, ...extra };
}

export interface RunGitOptions {
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
}

/** Runs git and returns its exit code and output; never throws for a non-zero exit. */
export function runGit(cwd: string, args: readonly string[], options: RunGitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args as string[],
      { cwd, env: gitEnv(options.env), encoding: 'buffer', maxBuffer: 1 << 30 },
      (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -1) : 0;
        if (error && code === -1 && !(stdout as Buffer | undefined)) {
          reject(error);
          return;
        }
        resolve({ code, stdout: stdout as Buffer, stderr: (stderr as Buffer).toString('utf8') });
      },
    );
    // git may exit before reading its input (not a repository, a bad name): the broken pipe is
    // then reported through git's exit code and stderr, never as an uncaught stream error.
    child.stdin?.on('error', () => undefined);
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Runs git and returns stdout; throws GitError on a non-zero exit. */
export async function git(cwd: string, args: readonly string[], options: RunGitOptions = {}): Promise<Buffer> {
  const result = await runGit(cwd, args, options);
  if (result.code !== 0) throw new GitError(args, result.code, result.stderr);
  return result.stdout;
}

export async function gitText(cwd: string, args: readonly string[], options: RunGitOptions = {}): Promise<string> {
  return (await git(cwd, args, options)).toString('utf8');
}

/** The git top level of `cwd`, or null outside a repository. */
export async function topLevel(cwd: string): Promise<string | null> {
  const r = await runGit(cwd, ['rev-parse', '--show-toplevel']).catch(() => null);
  if (r?.code !== 0) return null;
  return r.stdout.toString('utf8').trim();
}

/** Full sha of a revision, or null when it does not resolve. */
export async function resolveCommit(cwd: string, rev: string): Promise<string | null> {
  const r = await runGit(cwd, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
export const NULL_SHA = '0000000000000000000000000000000000000000';

/** One entry of `git diff --raw -z` output; its paths root-relative unless `P` says otherwise (TopLevelPath: as git printed them). */
export interface RawChange<P = string> {
  /** A, M, D, R, C, T, U, X */
  readonly status: string;
  readonly srcMode: string;
  readonly dstMode: string;
  readonly srcSha: string;
  readonly dstSha: string;
  /** Path after the change (the new path for renames). */
  readonly path: P;
  /** The old path for renames and copies. */
  readonly oldPath?: P;
}

/** Parses `git diff --raw -z --no-abbrev` output: paths from the top level, as git prints them. Pure. */
export function parseRawDiff(out: Buffer): RawChange<TopLevelPath>[] {
  const parts = out.toString('utf8').split('\0');
  const changes: RawChange<TopLevelPath>[] = [];
  let i = 0;
  while (i < parts.length) {
    const header = parts[i];
    if (!header?.startsWith(':')) {
      i += 1;
      continue;
    }
    const [srcMode, dstMode, srcSha, dstSha, statusField] = header.slice(1).split(' ');
    const status = (statusField ?? '').charAt(0);
    if (status === 'R' || status === 'C') {
      const oldPath = asTopLevel(parts[i + 1] ?? '');
      const newPath = asTopLevel(parts[i + 2] ?? '');
      changes.push({ status, srcMode: srcMode!, dstMode: dstMode!, srcSha: srcSha!, dstSha: dstSha!, path: newPath, oldPath });
      i += 3;
    } else {
      changes.push({
        status,
        srcMode: srcMode!,
        dstMode: dstMode!,
        srcSha: srcSha!,
        dstSha: dstSha!,
        path: asTopLevel(parts[i + 1] ?? ''),
      });
      i += 2;
    }
  }
  return changes;
}

const NO_MODE = '000000';

/**
 * The changes under the project root, with root-relative paths (src/git/project-root.ts). A
 * rename into the root from outside it is an addition there, a rename out of it a deletion; a
 * copy from outside is an addition. Pure.
 */
export function changesAtRoot(changes: readonly RawChange<TopLevelPath>[], prefix: string): RawChange<RootPath>[] {
  const out: RawChange<RootPath>[] = [];
  for (const c of changes) {
    const now = rootPathOf(c.path, prefix);
    const was = c.oldPath === undefined ? null : rootPathOf(c.oldPath, prefix);
    const { oldPath: _old, path: _path, ...rest } = c;
    if (c.oldPath === undefined) {
      if (now !== null) out.push({ ...rest, path: now });
    } else if (now !== null && was !== null) out.push({ ...rest, path: now, oldPath: was });
    else if (now !== null) out.push({ ...rest, status: 'A', srcMode: NO_MODE, srcSha: NULL_SHA, path: now });
    else if (was !== null && c.status === 'R') out.push({ ...rest, status: 'D', dstMode: NO_MODE, dstSha: NULL_SHA, path: was });
  }
  return out;
}

/** The root-relative changes of `git diff --raw -z` output that git printed for `root`. */
export async function rootChanges(root: string, out: Buffer): Promise<RawChange<RootPath>[]> {
  return changesAtRoot(parseRawDiff(out), await rootPrefix(root));
}

/** The options of every raw diff: whole object names, renames, no external diff, paths from the top level whatever the config. */
export const RAW_DIFF_ARGS = ['--raw', '-z', '-M', '--no-abbrev', '--no-ext-diff', '--no-relative'] as const;

/** Staged changes (index against HEAD, or against the empty tree before the first commit). */
export async function stagedChanges(cwd: string): Promise<RawChange<RootPath>[]> {
  const head = await resolveCommit(cwd, 'HEAD');
  return stagedChangesFrom(cwd, head ?? EMPTY_TREE);
}

/** Staged changes against `base` (HEAD's commit or the empty tree). */
export async function stagedChangesFrom(cwd: string, base: string): Promise<RawChange<RootPath>[]> {
  return rootChanges(cwd, await git(cwd, ['diff', '--cached', ...RAW_DIFF_ARGS, base]));
}

/** Changes between two commits (`from` may be the empty tree). */
export async function rangeChanges(cwd: string, from: string, to: string): Promise<RawChange<RootPath>[]> {
  return rootChanges(cwd, await git(cwd, ['diff', ...RAW_DIFF_ARGS, from, to]));
}

/** One blob entry of a tree or of the index, its path root-relative. */
export interface BlobEntry {
  readonly mode: string;
  readonly sha: string;
  readonly path: string;
}

/**
 * Entries of the index (`git ls-files -s -z`), stage 0 only, optionally under pathspecs (relative
 * to the project root, where git runs); only the project root's files.
 */
export async function indexEntries(cwd: string, prefixes: readonly string[] = []): Promise<BlobEntry[]> {
  const out = await git(cwd, ['ls-files', '-s', '-z', '--full-name', '--', ...prefixes]);
  const prefix = await rootPrefix(cwd);
  const entries: BlobEntry[] = [];
  for (const rec of out.toString('utf8').split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, sha, stage] = rec.slice(0, tab).split(' ');
    if (stage !== '0') continue;
    const p = rootPathOf(asTopLevel(rec.slice(tab + 1)), prefix);
    if (p !== null) entries.push({ mode: mode!, sha: sha!, path: p });
  }
  return entries;
}

/**
 * The files `git ls-files` lists under root-relative pathspecs (tracked, and with `others` the
 * untracked files that are not ignored), as root-relative paths.
 */
export async function listedFiles(cwd: string, pathspecs: readonly string[], others: boolean): Promise<RootPath[]> {
  const out = await git(cwd, [
    'ls-files',
    '-z',
    '--full-name',
    '--cached',
    ...(others ? ['--others', '--exclude-standard'] : []),
    '--',
    ...pathspecs,
  ]);
  const prefix = await rootPrefix(cwd);
  const files: RootPath[] = [];
  for (const listed of out.toString('utf8').split('\0')) {
    const p = listed === '' ? null : rootPathOf(asTopLevel(listed), prefix);
    if (p !== null) files.push(p);
  }
  return files;
}

/**
 * How a plumbing read is run. `env` is laid over ours (a key set to undefined removes it): `pull`
 * reads a private bare repository and must not see the caller's GIT_DIR / GIT_INDEX_FILE.
 */
export interface PlumbingOptions {
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Blob entries of a commit's tree (`git ls-tree -r -z`) under the project root, optionally under
 * root-relative path prefixes; gitlinks (mode 160000) included. A foreign repository (`env`) has
 * no project root below its top level.
 */
export async function treeEntries(
  cwd: string,
  commit: string,
  prefixes: readonly string[] = [],
  options: PlumbingOptions = {},
): Promise<BlobEntry[]> {
  const prefix = await prefixFor(cwd, options);
  // --full-tree: every path (and pathspec) from the top level, whatever folder git runs in.
  const specs = prefix === '' ? prefixes : prefixes.length === 0 ? [prefix] : prefixes.map((p) => topLevelText(topLevelOf(p, prefix)));
  const out = await git(cwd, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...specs], runOptions(options));
  const entries: BlobEntry[] = [];
  for (const rec of out.toString('utf8').split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, sha] = rec.slice(0, tab).split(' ');
    if (type !== 'blob' && type !== 'commit') continue;
    const p = rootPathOf(asTopLevel(rec.slice(tab + 1)), prefix);
    if (p !== null) entries.push({ mode: mode!, sha: sha!, path: p });
  }
  return entries;
}

/** The project root's prefix for a git process: none in a foreign repository (`env` laid over ours). */
function prefixFor(cwd: string, options: PlumbingOptions): Promise<string> {
  return options.env === undefined ? rootPrefix(cwd) : Promise.resolve('');
}

/** Parses `git cat-file --batch` output for the names it was asked, in order. Pure. */
export function parseCatFileBatch(out: Buffer, names: readonly string[]): Map<string, Buffer | null> {
  const result = new Map<string, Buffer | null>();
  eachBatchObject(out, names, (name, object) => result.set(name, object === null ? null : object.data));
  return result;
}

/** One object of a `git cat-file --batch` answer: the object id git resolved the name to, and its content. */
export interface BatchObject {
  readonly id: string;
  readonly data: Buffer;
}

/** Parses `git cat-file --batch` output (`<id> <type> <size>` then the content) for the names asked, in order. Pure. */
export function parseCatFileObjects(out: Buffer, names: readonly string[]): Map<string, BatchObject | null> {
  const result = new Map<string, BatchObject | null>();
  eachBatchObject(out, names, (name, object) => result.set(name, object));
  return result;
}

/** Walks a `git cat-file --batch` answer once, handing each asked name its object (null: missing or ambiguous). */
function eachBatchObject(out: Buffer, names: readonly string[], take: (name: string, object: BatchObject | null) => void): void {
  let pos = 0;
  for (const name of names) {
    const nl = out.indexOf(10, pos);
    if (nl === -1) break;
    const header = out.subarray(pos, nl).toString('utf8');
    pos = nl + 1;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      take(name, null);
      continue;
    }
    const size = Number(header.slice(header.lastIndexOf(' ') + 1));
    take(name, { id: header.slice(0, header.indexOf(' ')), data: out.subarray(pos, pos + size) });
    pos += size + 1;
  }
}

/**
 * Reads many objects with one `git cat-file --batch` process (docs/stack-pitfalls.md#5).
 * Keys are object names (shas, or `<rev>:<path>` with a root-relative path, without newlines:
 * the path is made top-level for git, src/git/project-root.ts); missing objects map to null.
 */
export async function readObjects(
  cwd: string,
  names: readonly string[],
  options: PlumbingOptions = {},
): Promise<Map<string, Buffer | null>> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return new Map();
  const prefix = await prefixFor(cwd, options);
  const asked = unique.map((n) => gitObjectName(n, prefix));
  const read = parseCatFileBatch(
    await git(cwd, ['cat-file', '--batch'], { ...runOptions(options), input: `${asked.join('\n')}\n` }),
    asked,
  );
  return prefix === '' ? read : new Map(unique.map((n, i) => [n, read.get(asked[i]!) ?? null]));
}

function runOptions(options: PlumbingOptions): RunGitOptions {
  return options.env === undefined ? {} : { env: options.env };
}

/** `git config user.email`, or null when unset. */
export async function userEmail(cwd: string): Promise<string | null> {
  const r = await runGit(cwd, ['config', 'user.email']);
  const v = r.stdout.toString('utf8').trim();
  return r.code === 0 && v ? v : null;
}

/** The git directory (absolute), or null. */
export async function gitDir(cwd: string): Promise<string | null> {
  const r = await runGit(cwd, ['rev-parse', '--absolute-git-dir']);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}
