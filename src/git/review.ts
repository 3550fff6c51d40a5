/**
 * git helpers of the review ledger (ARCHITECTURE "git"): who added each ledger line, the identity
 * a commit would get, `Task:` trailers, and a narrow file source for one pushed commit.
 */
import { readObjects, runGit, treeEntries } from './core.js';
import type { RepoFiles } from '../repo-files.js';
import { compareStrings } from '../diagnostics.js';

/** The commit and author of one line of a file, from `git blame --porcelain`. */
export interface LineOrigin {
  readonly commit: string;
  readonly authorEmail: string;
  /** True when history stops at this commit (shallow clone / boundary): authorship is then unproven. */
  readonly boundary: boolean;
}

/** Parses `git blame --porcelain` output into one origin per final line, with the line's text. Pure. */
export function parseBlamePorcelain(out: string): { text: string; origin: LineOrigin }[] {
  const info = new Map<string, { email: string; boundary: boolean }>();
  const rows: { text: string; origin: LineOrigin }[] = [];
  let current: string | null = null;
  for (const line of out.split('\n')) {
    if (line.startsWith('\t')) {
      if (current === null) continue;
      const i = info.get(current) ?? { email: '', boundary: false };
      rows.push({ text: line.slice(1), origin: { commit: current, authorEmail: i.email, boundary: i.boundary } });
      continue;
    }
    const header = /^([0-9a-f]{40}) \d+ \d+/.exec(line);
    if (header) {
      current = header[1]!;
      if (!info.has(current)) info.set(current, { email: '', boundary: false });
      continue;
    }
    if (current === null) continue;
    const entry = info.get(current)!;
    if (line.startsWith('author-mail ')) entry.email = line.slice('author-mail '.length).replace(/^<|>$/g, '');
    else if (line === 'boundary') entry.boundary = true;
  }
  return rows;
}

/** Who added each line of `file` as it is at `commit`: a map from line text to its origins. */
export async function blameLines(root: string, commit: string, file: string): Promise<Map<string, LineOrigin[]>> {
  const r = await runGit(root, ['blame', '--porcelain', commit, '--', file]);
  const map = new Map<string, LineOrigin[]>();
  if (r.code !== 0) return map;
  for (const row of parseBlamePorcelain(r.stdout.toString('utf8'))) {
    const list = map.get(row.text) ?? [];
    list.push(row.origin);
    map.set(row.text, list);
  }
  return map;
}

/** The author email the next commit would record (`git var GIT_AUTHOR_IDENT`, honours GIT_AUTHOR_EMAIL), or null. */
export async function prospectiveAuthorEmail(root: string): Promise<string | null> {
  const r = await runGit(root, ['var', 'GIT_AUTHOR_IDENT']);
  if (r.code !== 0) return null;
  const m = /<([^>]*)>/.exec(r.stdout.toString('utf8'));
  return m?.[1] || null;
}

/** First parent of a commit, or null for a root commit. */
export async function firstParent(root: string, commit: string): Promise<string | null> {
  const r = await runGit(root, ['rev-parse', '--verify', '--quiet', `${commit}^1`]);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** Values of `Task:` trailers on a commit's message. */
export async function taskTrailers(root: string, commit: string): Promise<string[]> {
  return trailerValues(root, ['-1', commit]);
}

/**
 * Values of `Task:` trailers on every commit of `from..to` (every ancestor of `to` when `from`
 * is null): a push carries all of them, not only its tip.
 */
export async function taskTrailersInRange(root: string, from: string | null, to: string): Promise<string[]> {
  return trailerValues(root, [from === null ? to : `${from}..${to}`]);
}

async function trailerValues(root: string, revs: string[]): Promise<string[]> {
  const r = await runGit(root, ['log', '--format=%(trailers:key=Task,valueonly,separator=%x00)', ...revs, '--']);
  if (r.code !== 0) return [];
  return [
    ...new Set(
      r.stdout
        .toString('utf8')
        .split(/\0|\n/)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

/** Commits of `from..to` (all ancestors of `to` when `from` is null) that touch `file`, oldest first. */
export async function commitsTouching(root: string, from: string | null, to: string, file: string): Promise<string[]> {
  const r = await runGit(root, ['log', '--reverse', '--format=%H', from === null ? to : `${from}..${to}`, '--', file]);
  if (r.code !== 0) return [];
  return r.stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => /^[0-9a-f]{40,64}$/.test(l));
}

/**
 * A file source for one commit that reads only what is asked for (`<commit>:<path>` through one
 * `cat-file --batch`) instead of listing the whole tree: the push gate needs one ledger.
 */
export function commitBlobFiles(root: string, commit: string): RepoFiles {
  const cache = new Map<string, Buffer | null>();
  const prefetch = async (files: readonly string[]): Promise<void> => {
    const wanted = files.filter((f) => !cache.has(f));
    if (wanted.length === 0) return;
    const objects = await readObjects(
      root,
      wanted.map((f) => `${commit}:${f}`),
    );
    for (const f of wanted) cache.set(f, objects.get(`${commit}:${f}`) ?? null);
  };
  return {
    label: `commit:${commit.slice(0, 12)}`,
    async list(dir) {
      const clean = dir.replace(/\/+$/, '');
      return (await treeEntries(root, commit, [`${clean}/`]))
        .filter((e) => e.mode !== '160000')
        .map((e) => e.path)
        .sort(compareStrings);
    },
    async read(file) {
      if (!cache.has(file)) await prefetch([file]);
      return cache.get(file) ?? null;
    },
    prefetch,
  };
}

/** `<sha>:<path>` contents for many commits at once (e.g. roles.json at every commit that added a waiver). */
export async function fileAtCommits(root: string, file: string, commits: readonly string[]): Promise<Map<string, Buffer | null>> {
  const objects = await readObjects(
    root,
    commits.map((c) => `${c}:${file}`),
  );
  return new Map(commits.map((c) => [c, objects.get(`${c}:${file}`) ?? null]));
}
