/**
 * History walks for constraint measurement (docs/contracts/compiler.md#replay-qualification: shadow
 * measurements are replayed over the repository's history). Builds on `git` from src/git/core.ts.
 *
 * One `git log --raw` process lists every commit of the range with the files it changed against
 * its first parent (a root commit: every file it has), including both blob ids of each file, so
 * the contents can then be read with one `git cat-file --batch` (src/git/blob-stream.ts).
 * `streamHistory` hands the commits out as git writes them (flat memory); it starts git itself
 * because `git()` buffers the whole output.
 */
import { UsageError } from '../exit-codes.js';
import { spawn } from 'node:child_process';
import { changesAtRoot, git, GitError, gitEnv, parseRawDiff, resolveCommit, type RawChange } from './core.js';
import { rootPrefix } from './project-root.js';

export interface HistoryCommit {
  /** Full sha. */
  readonly sha: string;
  /** Parent shas, first parent first (empty for a root commit). */
  readonly parents: readonly string[];
  /** Changes against the first parent under the project root, root-relative (renames appear as a deletion plus an addition). */
  readonly changes: readonly RawChange[];
}

/** Which commits to walk: all of HEAD's history, those after `since`, or the newest `commits`. */
export interface HistoryRange {
  readonly since?: string | undefined;
  readonly commits?: number | undefined;
}

const START = 0x01;
const NUL = 0x00;

/** One commit parsed at `pos`, and where the next one starts; null when `out` ends inside it. */
interface ParsedCommit {
  readonly commit: HistoryCommit;
  readonly next: number;
}

/**
 * Parses the commit whose header starts at `pos` (a 0x01 byte). Sequential (commit header, then
 * `:`-records whose paths are NUL-terminated), so a path containing any byte, even 0x01, cannot
 * be mistaken for a commit boundary. Unless `final`, a commit counts as complete only once the
 * byte after its last record is in `out` (more records could follow in the next chunk).
 */
function parseCommitAt(out: Buffer, pos: number, final: boolean, prefix: string): ParsedCommit | null {
  let end = out.indexOf(NUL, pos);
  if (end === -1) {
    if (!final) return null;
    end = out.length;
  }
  const [sha = '', ...parents] = out
    .subarray(pos + 1, end)
    .toString('utf8')
    .trim()
    .split(' ')
    .filter((s) => s !== '');
  let p = end + 1;
  if (out[p] === 0x0a) p += 1;
  const recordStart = p;
  // Each record: ":<modes> <shas> <status>\0<path>\0" (+ "<path2>\0" for R/C, which --no-renames avoids).
  while (p < out.length && out[p] === 0x3a) {
    const headerEnd = out.indexOf(NUL, p);
    let next = headerEnd === -1 ? -1 : out.indexOf(NUL, headerEnd + 1);
    const status = headerEnd === -1 ? '' : out.subarray(headerEnd - 1, headerEnd).toString('latin1');
    if (next !== -1 && (status === 'R' || status === 'C')) next = out.indexOf(NUL, next + 1);
    if (next === -1) {
      if (!final) return null;
      p = out.length;
      break;
    }
    p = next + 1;
  }
  if (!final && p >= out.length) return null;
  const commit = { sha, parents, changes: changesAtRoot(parseRawDiff(out.subarray(recordStart, p)), prefix) };
  if (out[p] === 0x0a) p += 1;
  return { commit, next: p };
}

/**
 * The commits that start at a START byte in `out`, from the front; stops at an incomplete commit
 * unless `complete` (the whole output is there). Returns where parsing stopped. Pure.
 */
function scanCommits(out: Buffer, complete: boolean, prefix: string): { commits: HistoryCommit[]; stop: number } {
  const commits: HistoryCommit[] = [];
  let pos = 0;
  while (pos < out.length) {
    if (out[pos] !== START) {
      pos += 1;
      continue;
    }
    const r = parseCommitAt(out, pos, complete, prefix);
    if (r === null) break;
    commits.push(r.commit);
    pos = r.next;
  }
  return { commits, stop: pos };
}

/**
 * Parses `git log --format=%x01%H %P --raw -z --no-abbrev` output; `prefix` is the project root's
 * below the top level (only its changes are kept, root-relative: src/git/project-root.ts). Pure.
 */
export function parseLogRaw(out: Buffer, prefix = ''): HistoryCommit[] {
  return scanCommits(out, true, prefix).commits;
}

/**
 * Incremental form of parseLogRaw for a stream: feed chunks, get the commits completed so far;
 * `end()` returns the rest. Holds only the unparsed tail, never the whole log.
 */
export class LogRawParser {
  private tail: Buffer = Buffer.alloc(0);

  /** `prefix`: the project root's below the top level (parseLogRaw). */
  constructor(private readonly prefix = '') {}

  push(chunk: Buffer): HistoryCommit[] {
    const out = this.tail.length === 0 ? chunk : Buffer.concat([this.tail, chunk]);
    const { commits, stop } = scanCommits(out, false, this.prefix);
    // Copy the tail so the chunk it came from can be freed.
    this.tail = Buffer.from(out.subarray(stop));
    return commits;
  }

  end(): HistoryCommit[] {
    const rest = parseLogRaw(this.tail, this.prefix);
    this.tail = Buffer.alloc(0);
    return rest;
  }
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
  const out = await git(root, ['log', ...LOG_ARGS, ...(await rangeArgs(root, head, range)), '--']);
  return parseLogRaw(out, await rootPrefix(root));
}

const LOG_ARGS = [
  '--format=%x01%H %P',
  '--raw',
  '-z',
  '--no-abbrev',
  '--no-relative',
  '--no-renames',
  '--no-ext-diff',
  '--no-textconv',
  '--diff-merges=first-parent',
  '--root',
];

/** How many commits a range has (`git rev-list --count`), for a progress line. */
export async function countCommits(root: string, head: string, range: HistoryRange = {}): Promise<number> {
  const out = await git(root, ['rev-list', '--count', ...(await rangeArgs(root, head, range)), '--']);
  return Number(out.toString('utf8').trim());
}

/**
 * The commits of a range, oldest first (parents before children: --topo-order --reverse), read
 * from one `git log --raw` process as it writes them: only the commit being handed out and the
 * unparsed tail of the output are held, whatever the history length. Stopping the iteration
 * early ends the git process.
 */
export async function* streamHistory(root: string, head: string, range: HistoryRange = {}): AsyncGenerator<HistoryCommit> {
  const args = ['log', ...LOG_ARGS, '--topo-order', '--reverse', ...(await rangeArgs(root, head, range)), '--'];
  const parser = new LogRawParser(await rootPrefix(root));
  const child = spawn('git', args, { cwd: root, env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? -1));
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  let finished = false;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      for (const c of parser.push(chunk)) yield c;
    }
    for (const c of parser.end()) yield c;
    finished = true;
  } finally {
    if (!finished) child.kill();
  }
  const code = await exited;
  if (code !== 0) throw new GitError(args, code, stderr);
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
