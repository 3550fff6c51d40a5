/**
 * git for `findings pull` (docs/reuse.md): reads another repository's files without ever running
 * anything from it. The source is fetched into a private temporary bare repository (never a
 * working tree, so no checkout, no hooks, no filters), then read with `ls-tree` / `cat-file`.
 *
 * Defences (README "Rules"): the URL is always passed after `--`; a source or ref that starts
 * with `-` is refused; only the transports listed in `ALLOWED_SCHEMES` (plus scp-like ssh and
 * local paths) are accepted — never `ext::` or other `<helper>::` forms, which run programs;
 * `GIT_TERMINAL_PROMPT=0` so an unreachable https source fails instead of prompting;
 * `protocol.file.allow=always` only for local paths; our environment's GIT_DIR / GIT_INDEX_FILE /
 * object-directory variables never reach these git processes.
 */
import { existsSync, statSync } from 'node:fs';
import { makePullTempDir } from '../fs/temp-dirs.js';
import path from 'node:path';
import { readObjects, runGit, treeEntries, type BlobEntry, type GitResult } from './core.js';

const ALLOWED_SCHEMES = new Set(['http', 'https', 'ssh', 'git', 'file']);

export type SourceKind = 'local' | 'url';

export interface ClassifiedSource {
  readonly kind: SourceKind;
  /** For `local`: the absolute path; for `url`: the URL as given. */
  readonly location: string;
}

/** Why a source string is unacceptable, or null. Pure. */
export function sourceProblem(source: string): string | null {
  if (source.trim() === '') return 'is empty';
  if (source.startsWith('-')) return 'starts with "-" (it would be read as a git option)';
  if (/[\0\r\n]/.test(source)) return 'contains a control character';
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(source))
    return 'uses a git remote helper ("<transport>::…"), which runs a program; give a path or an http(s), ssh, git or file URL';
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(source);
  if (scheme) {
    if (!ALLOWED_SCHEMES.has(scheme[1]!.toLowerCase()))
      return `uses the unsupported transport "${scheme[1]}" (use http, https, ssh, git, file or a path)`;
    try {
      if (new URL(source).password !== '')
        return 'has a password in it; use a git credential helper instead (the URL is recorded in sources.json)';
    } catch {
      // git may accept URLs WHATWG does not (ssh://host:~/x); let git judge
    }
  }
  return null;
}

/** git's own rule: `scheme://…` is a URL; `host:path` with the colon before any `/` is scp-like ssh. */
export function isUrl(source: string): boolean {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(source)) return true;
  const colon = source.indexOf(':');
  const slash = source.indexOf('/');
  return colon > 0 && (slash === -1 || colon < slash);
}

/** Classifies a source given on the command line; local paths resolve against `cwd`. */
export function classifySource(source: string, cwd: string): ClassifiedSource {
  if (isUrl(source)) return { kind: 'url', location: source };
  return { kind: 'local', location: path.resolve(cwd, source) };
}

/** Why a ref is unacceptable, or null. A full or abbreviated sha, `HEAD`, or a ref name git accepts. */
export function refProblem(ref: string): string | null {
  if (ref === '') return 'is empty';
  if (ref.startsWith('-')) return 'starts with "-"';
  if (/^[0-9a-f]{7,64}$/i.test(ref) || ref === 'HEAD') return null;
  // The subset of git-check-ref-format rules that matter for a fetch refspec.
  if (/[\0-\x20\x7f~^:?*[\\]/.test(ref))
    return 'contains a character git does not allow in a ref name (space, ~ ^ : ? * [ \\ or a control character)';
  if (ref.includes('..') || ref.includes('@{') || ref.includes('//')) return 'contains "..", "@{" or "//"';
  if (ref.endsWith('/') || ref.endsWith('.') || ref.endsWith('.lock') || ref.startsWith('/')) return 'is not a valid ref name';
  return null;
}

/** An environment for git processes that work on a private repository, not the user's. */
function isolatedEnv(gitDir: string | undefined): NodeJS.ProcessEnv {
  return {
    GIT_DIR: gitDir,
    GIT_WORK_TREE: undefined,
    GIT_INDEX_FILE: undefined,
    GIT_OBJECT_DIRECTORY: undefined,
    GIT_ALTERNATE_OBJECT_DIRECTORIES: undefined,
    GIT_NAMESPACE: undefined,
    GIT_TERMINAL_PROMPT: '0',
  };
}

function transportConfig(source: ClassifiedSource): string[] {
  const base = ['-c', 'protocol.ext.allow=never'];
  return source.kind === 'local' || source.location.startsWith('file:') ? [...base, '-c', 'protocol.file.allow=always'] : base;
}

/** Why git could not read a source (first meaningful stderr line). */
function gitReason(result: GitResult): string {
  const lines = result.stderr
    .split('\n')
    .map((l) => l.replace(/^fatal: /, '').trim())
    .filter((l) => l !== '');
  return lines[0] ?? `git exited with ${result.code}`;
}

export type FetchFailure =
  | { readonly kind: 'missing'; readonly message: string }
  | { readonly kind: 'not-a-repository'; readonly message: string }
  | { readonly kind: 'unreachable'; readonly message: string }
  | { readonly kind: 'bad-ref'; readonly message: string };

/** A fetched source, readable with plumbing only. Call `dispose()` when done. */
export interface FetchedSource {
  readonly commit: string;
  /** Blob entries of the commit's tree under these prefixes. */
  entries(prefixes: readonly string[]): Promise<BlobEntry[]>;
  /** Reads blobs by sha (one `cat-file --batch`); missing → null. */
  readBlobs(shas: readonly string[]): Promise<Map<string, Buffer | null>>;
  dispose(): void;
}

const PRIVATE_REF = 'refs/findings-pull/source';
const GITLINK_MODE = '160000';

/**
 * Fetches `ref` (default HEAD) of a source into a temporary bare repository (depth 1: only the
 * tree at that commit is needed). Returns the fetched source or why it could not be read.
 */
export async function fetchSource(
  source: ClassifiedSource,
  ref: string,
): Promise<{ ok: true; source: FetchedSource } | { ok: false; failure: FetchFailure }> {
  if (source.kind === 'local') {
    let isDir = false;
    try {
      isDir = statSync(source.location).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir)
      return { ok: false, failure: { kind: 'missing', message: existsSync(source.location) ? 'is not a directory' : 'does not exist' } };
  }
  const { dir, dispose } = makePullTempDir(); // removed on return, error and SIGINT/SIGTERM
  try {
    const env = isolatedEnv(dir);
    const init = await runGit(dir, ['init', '--bare', '--quiet', dir], { env: isolatedEnv(undefined) });
    if (init.code !== 0) throw new Error(`cannot create a temporary repository: ${gitReason(init)}`);
    const fetch = await runGit(
      dir,
      [
        ...transportConfig(source),
        'fetch',
        '--quiet',
        '--no-tags',
        '--no-write-fetch-head',
        '--no-recurse-submodules',
        '--depth=1',
        '--',
        source.location,
        `+${ref}:${PRIVATE_REF}`,
      ],
      { env },
    );
    if (fetch.code !== 0) {
      dispose();
      const reason = gitReason(fetch);
      if (/does not appear to be a git repository|not a git repository/i.test(fetch.stderr)) {
        // A reachable place that is not a repository (a plain folder, a bad path on a server).
        return { ok: false, failure: { kind: source.kind === 'local' ? 'not-a-repository' : 'unreachable', message: reason } };
      }
      if (/couldn't find remote ref|not our ref|invalid refspec|unadvertised object/i.test(fetch.stderr)) {
        return { ok: false, failure: { kind: 'bad-ref', message: reason } };
      }
      return { ok: false, failure: { kind: 'unreachable', message: reason } };
    }
    const rev = await runGit(dir, ['rev-parse', '--verify', '--quiet', `${PRIVATE_REF}^{commit}`], { env });
    if (rev.code !== 0) {
      dispose();
      return { ok: false, failure: { kind: 'bad-ref', message: `${ref} does not name a commit` } };
    }
    const commit = rev.stdout.toString('utf8').trim();
    return {
      ok: true,
      source: {
        commit,
        // Submodule commits (gitlinks, mode 160000) are not files a pull could copy.
        entries: async (prefixes) => (await treeEntries(dir, commit, prefixes, { env })).filter((e) => e.mode !== GITLINK_MODE),
        readBlobs: (shas) => readObjects(dir, shas, { env }),
        dispose,
      },
    };
  } catch (error) {
    dispose();
    throw error;
  }
}

/**
 * The commit a source's ref points at now, without fetching (`git ls-remote`), for
 * `pull --check`. A ref that is a full sha is pinned: it is its own answer.
 */
export async function remoteCommit(
  source: ClassifiedSource,
  ref: string,
): Promise<{ ok: true; commit: string } | { ok: false; failure: FetchFailure }> {
  if (/^[0-9a-f]{40}$/i.test(ref) || /^[0-9a-f]{64}$/i.test(ref)) return { ok: true, commit: ref.toLowerCase() };
  if (source.kind === 'local' && !existsSync(source.location))
    return { ok: false, failure: { kind: 'missing', message: 'does not exist' } };
  // Never from inside the source: git would load its local config (core.sshCommand, url.*.insteadOf
  // can run programs). An empty private bare repository gives ls-remote a harmless config.
  const { dir, dispose } = makePullTempDir();
  let r: GitResult;
  try {
    const init = await runGit(dir, ['init', '--bare', '--quiet', dir], { env: isolatedEnv(undefined) });
    if (init.code !== 0) throw new Error(`cannot create a temporary repository: ${gitReason(init)}`);
    r = await runGit(dir, [...transportConfig(source), 'ls-remote', '--', source.location, ref], { env: isolatedEnv(dir) });
  } finally {
    dispose();
  }
  if (r.code !== 0) {
    const kind =
      /does not appear to be a git repository|not a git repository/i.test(r.stderr) && source.kind === 'local'
        ? 'not-a-repository'
        : 'unreachable';
    return { ok: false, failure: { kind, message: gitReason(r) } };
  }
  const commit = pickRemoteRef(r.stdout.toString('utf8'), ref);
  return commit === null ? { ok: false, failure: { kind: 'bad-ref', message: `couldn't find remote ref ${ref}` } } : { ok: true, commit };
}

/**
 * Chooses the line of `ls-remote` output that git's fetch would use for `ref`: the exact name,
 * then `refs/heads/<ref>`, then `refs/tags/<ref>` (peeled `^{}` first, since tags are peeled to
 * their commit when pulled). Pure.
 */
export function pickRemoteRef(output: string, ref: string): string | null {
  const map = new Map<string, string>();
  for (const line of output.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab === -1) continue;
    map.set(line.slice(tab + 1).trim(), line.slice(0, tab).trim());
  }
  for (const name of [ref, `refs/heads/${ref}`, `refs/tags/${ref}`]) {
    const sha = map.get(`${name}^{}`) ?? map.get(name);
    if (sha !== undefined) return sha;
  }
  return null;
}
