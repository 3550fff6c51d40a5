/**
 * History walks for constraint measurement (finding-compiler.md, "Replay qualification": shadow
 * measurements are replayed over the repository's history). Builds on `git` from src/git.ts.
 *
 * One `git log --raw` process lists every commit of the range with the files it changed against
 * its first parent (a root commit: every file it has), including each file's blob id, so the
 * contents can then be read with one `git cat-file --batch` (src/git.ts readObjects).
 */
import { UsageError } from './exit-codes.js';
import { git, parseRawDiff, resolveCommit, type RawChange } from './git.js';

export interface HistoryCommit {
  /** Full sha. */
  readonly sha: string;
  /** Parent shas, first parent first (empty for a root commit). */
  readonly parents: readonly string[];
  /** Changes against the first parent (renames appear as a deletion plus an addition). */
  readonly changes: readonly RawChange[];
}

/** Which commits to walk: all of HEAD's history, those after `since`, or the newest `commits`. */
export interface HistoryRange {
  readonly since?: string | undefined;
  readonly commits?: number | undefined;
}

const START = 0x01;
const NUL = 0x00;

/**
 * Parses `git log --format=%x01%H %P --raw -z --no-abbrev` output. Pure. Reads sequentially
 * (commit header, then `:`-records whose paths are NUL-terminated), so a path containing any
 * byte, even 0x01, cannot be mistaken for a commit boundary.
 */
export function parseLogRaw(out: Buffer): HistoryCommit[] {
  const commits: HistoryCommit[] = [];
  let pos = 0;
  while (pos < out.length) {
    if (out[pos] !== START) {
      pos += 1;
      continue;
    }
    let end = out.indexOf(NUL, pos);
    if (end === -1) end = out.length;
    const [sha = '', ...parents] = out.subarray(pos + 1, end).toString('utf8').trim().split(' ').filter((s) => s !== '');
    pos = end + 1;
    if (out[pos] === 0x0a) pos += 1;
    const recordStart = pos;
    // Each record: ":<modes> <shas> <status>\0<path>\0" (+ "<path2>\0" for R/C, which --no-renames avoids).
    while (pos < out.length && out[pos] === 0x3a) {
      const headerEnd = out.indexOf(NUL, pos);
      if (headerEnd === -1) {
        pos = out.length;
        break;
      }
      const status = out.subarray(headerEnd - 1, headerEnd).toString('latin1');
      let next = out.indexOf(NUL, headerEnd + 1);
      if (status === 'R' || status === 'C') next = out.indexOf(NUL, next + 1);
      pos = next === -1 ? out.length : next + 1;
    }
    commits.push({ sha, parents, changes: parseRawDiff(out.subarray(recordStart, pos)) });
    if (out[pos] === 0x0a) pos += 1;
  }
  return commits;
}

/** The revision arguments for a range; throws UsageError for a revision that does not resolve. */
async function rangeArgs(root: string, head: string, range: HistoryRange): Promise<string[]> {
  const args: string[] = [];
  if (range.commits !== undefined) args.push(`--max-count=${range.commits}`);
  if (range.since !== undefined) {
    const since = await resolveCommit(root, range.since);
    if (since === null) throw new UsageError(`--since ${range.since}: not a commit`);
    args.push(head, `^${since}`);
  } else {
    args.push(head);
  }
  return args;
}

/**
 * The commits of a range, newest first (git's default order, deterministic for a given history),
 * each with its changes against the first parent.
 */
export async function historyCommits(root: string, head: string, range: HistoryRange = {}): Promise<HistoryCommit[]> {
  const out = await git(root, [
    'log',
    '--format=%x01%H %P',
    '--raw',
    '-z',
    '--no-abbrev',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '--diff-merges=first-parent',
    '--root',
    ...(await rangeArgs(root, head, range)),
    '--',
  ]);
  return parseLogRaw(out);
}

/** HEAD's full sha; UsageError when HEAD has no commit yet. */
export async function headCommit(root: string): Promise<string> {
  const head = await resolveCommit(root, 'HEAD');
  if (head === null) throw new UsageError('HEAD has no commit yet: there is no history to measure');
  return head;
}

/**
 * The shortest prefix length (at least `min`) at which every sha of the list is unique, so hit
 * ids `<commit8>:<path>:<line>` stay unambiguous even when two commits share 8 leading digits.
 */
export function uniquePrefixLength(shas: readonly string[], min = 8): number {
  const sorted = [...new Set(shas)].sort();
  let len = min;
  for (let i = 1; i < sorted.length; i += 1) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    let common = 0;
    while (common < a.length && a[common] === b[common]) common += 1;
    len = Math.max(len, common + 1);
  }
  return len;
}
