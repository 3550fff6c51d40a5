/**
 * Replaying one constraint over history — the core of `findings constraint measure`, free of
 * I/O (the caller reads the blobs). Uses the gate's own engine (src/match/detector.ts,
 * src/match/applies.ts), so a measured hit is exactly what the gate would have reported on that
 * line at that commit.
 *
 * Distinct hits (docs/lifecycle.md): a violation is listed once, at the commit that introduced
 * it — its line's content matches there and did not (or not as many times) at the same path in
 * the first parent, or the file is new. A later commit that changes the file and still has the
 * line adds one to that hit's `seen`, not a new hit.
 */
import { createHash } from 'node:crypto';
import { NULL_SHA } from '../git/core.js';
import type { HistoryCommit } from '../git/history.js';
import { compileAppliesTo } from '../match/applies.js';
import { compileDetector, evaluate, type Matcher } from '../match/detector.js';
import type { ConstraintEntry } from '../types.js';
import { labelKey, withVerdict, type EvaluationError, type MeasuredHit, type Verdict } from './measurement.js';

/** git's own binary heuristic, as the gate uses it: a NUL byte in the first 8 KB. */
export function isBinary(data: Buffer): boolean {
  return data.subarray(0, 8192).includes(0);
}

/** A change whose new side is a file the constraint can be evaluated on (not deleted, not a submodule). */
function evaluable(mode: string, sha: string, status: string): boolean {
  return status !== 'D' && mode !== '160000' && mode !== '000000' && sha !== NULL_SHA;
}

export type Prepared =
  | { readonly ok: true; readonly matcher: Matcher; readonly applies: (path: string) => boolean }
  | { readonly ok: false; readonly problem: string };

/** Compiles an index entry's detector and applicability. Pure. */
export function prepare(entry: ConstraintEntry): Prepared {
  const detector = compileDetector(entry.detector);
  if (!detector.ok) return { ok: false, problem: detector.problem };
  const applies = compileAppliesTo(entry.applies_to);
  if (!applies.ok) return { ok: false, problem: applies.problem };
  return { ok: true, matcher: detector.matcher, applies: applies.test };
}

/** One violating line of a blob: its line number and a hash of its content. */
interface LineMatch {
  readonly line: number;
  readonly key: string;
}

type BlobVerdict = { readonly matches: readonly LineMatch[] } | { readonly error: string } | null;

/** A must_contain violation is the file's lack of the pattern, not a line: one key for it. */
const ABSENT = '(absent)';

const lineKey = (text: string): string => createHash('sha1').update(text).digest('base64');

/** Bounded cache of blob verdicts: a parent blob is usually the previous change's new blob. */
const VERDICT_CACHE = 8192;

interface OpenHit {
  readonly commit: string;
  readonly path: string;
  readonly line: number;
  seen: number;
  verdict?: Verdict;
}

export interface ReplayResult {
  readonly samples: number;
  readonly hits: MeasuredHit[];
  readonly errors: EvaluationError[];
  /** Keys (`labelKey`) of previous labels that landed on a hit (at its introduction or a later sighting). */
  readonly absorbed: ReadonlySet<string>;
}

export interface ReplayOptions {
  readonly budgetMs: number;
  /** Labels of the previous measurement by `labelKey`; a label on a later sighting carries to the distinct hit. */
  readonly labels?: ReadonlyMap<string, Verdict>;
}

/**
 * Replays one prepared constraint commit by commit, oldest first. The caller asks `needed(commit)`
 * for the blobs to read, reads them, and passes them to `add(commit, blobs)`; nothing but the
 * verdict cache, the open hits and, per path, the lines still present is kept between commits.
 */
export class DistinctReplay {
  private samples = 0;
  private readonly hits: OpenHit[] = [];
  private readonly errors: EvaluationError[] = [];
  private readonly absorbed = new Set<string>();
  private readonly verdicts = new Map<string, BlobVerdict>();
  /** Per path, per line key: the hits (by index) of the copies present after the last change. */
  private readonly present = new Map<string, Map<string, (number | undefined)[]>>();

  constructor(
    private readonly prepared: Extract<Prepared, { ok: true }>,
    private readonly options: ReplayOptions,
  ) {}

  /** The changes of a commit this constraint evaluates. */
  private changes(commit: HistoryCommit) {
    return commit.changes.filter((ch) => evaluable(ch.dstMode, ch.dstSha, ch.status) && this.prepared.applies(ch.path));
  }

  /** Blob ids `add` will need for this commit and has no verdict for (the cached ones are kept warm). */
  needed(commit: HistoryCommit): string[] {
    const out: string[] = [];
    for (const ch of this.changes(commit)) {
      for (const sha of [ch.dstSha, ...(hasOldSide(ch) ? [ch.srcSha] : [])]) {
        const v = this.verdicts.get(sha);
        if (v === undefined) out.push(sha);
        else {
          this.verdicts.delete(sha);
          this.verdicts.set(sha, v);
        }
      }
    }
    return out;
  }

  /** Replays one commit; `blobs` holds at least what `needed` returned. */
  add(commit: HistoryCommit, blobs: ReadonlyMap<string, Buffer | null>): void {
    for (const ch of commit.changes) {
      if (ch.status === 'D') this.present.delete(ch.path);
    }
    for (const ch of this.changes(commit)) {
      const now = this.verdictOf(ch.dstSha, blobs);
      if (now === null) {
        this.present.delete(ch.path);
        continue;
      }
      this.samples += 1;
      if ('error' in now) {
        this.errors.push({ commit: commit.sha, path: ch.path, message: now.error });
        this.present.delete(ch.path);
        continue;
      }
      const before = hasOldSide(ch) ? this.verdictOf(ch.srcSha, blobs) : null;
      this.compare(commit.sha, ch.path, before !== null && 'matches' in before ? before.matches : [], now.matches);
    }
  }

  /** Drops the least recently used verdicts beyond the cache size; call between batches (never while one is replayed). */
  trim(): void {
    for (const sha of this.verdicts.keys()) {
      if (this.verdicts.size <= VERDICT_CACHE) break;
      this.verdicts.delete(sha);
    }
  }

  /** The distinct hits so far, with ids `<commit-prefix>:<path>:<line>`. */
  result(prefixLength: number): ReplayResult {
    const hits = this.hits.map(
      (h): MeasuredHit =>
        withVerdict(
          { id: `${h.commit.slice(0, prefixLength)}:${h.path}:${h.line}`, commit: h.commit, path: h.path, line: h.line, seen: h.seen },
          h.verdict,
        ),
    );
    return { samples: this.samples, hits, errors: [...this.errors], absorbed: new Set(this.absorbed) };
  }

  /** The commits of the hits so far (for the id prefix length). */
  hitCommits(): string[] {
    return this.hits.map((h) => h.commit);
  }

  private compare(commit: string, path: string, before: readonly LineMatch[], now: readonly LineMatch[]): void {
    const beforeCount = new Map<string, number>();
    for (const m of before) beforeCount.set(m.key, (beforeCount.get(m.key) ?? 0) + 1);
    const known = this.present.get(path);
    const next = new Map<string, (number | undefined)[]>();
    for (const m of now) {
      const copies = next.get(m.key) ?? [];
      next.set(m.key, copies);
      const k = copies.length;
      const label = this.options.labels?.get(labelKey(commit, path, m.line));
      if (k < (beforeCount.get(m.key) ?? 0)) {
        // Present in the parent already: a later sighting of the hit that introduced it.
        const index = known?.get(m.key)?.[k];
        copies.push(index);
        if (index === undefined) continue;
        const hit = this.hits[index]!;
        hit.seen += 1;
        if (label !== undefined) {
          this.absorbed.add(labelKey(commit, path, m.line));
          hit.verdict ??= label;
        }
        continue;
      }
      const hit: OpenHit = { commit, path, line: m.line, seen: 0 };
      if (label !== undefined) {
        hit.verdict = label;
        this.absorbed.add(labelKey(commit, path, m.line));
      }
      copies.push(this.hits.length);
      this.hits.push(hit);
    }
    this.present.set(path, next);
  }

  private verdictOf(sha: string, blobs: ReadonlyMap<string, Buffer | null>): BlobVerdict {
    const cached = this.verdicts.get(sha);
    if (cached !== undefined) return cached;
    const data = blobs.get(sha) ?? null;
    let v: BlobVerdict;
    if (data === null || isBinary(data)) v = null;
    else {
      const text = data.toString('utf8');
      const r = evaluate(this.prepared.matcher, text, { budgetMs: this.options.budgetMs, maxHits: Number.MAX_SAFE_INTEGER });
      v =
        r.error !== undefined
          ? { error: r.error }
          : {
              matches: lineMatches(
                this.prepared.matcher,
                text,
                r.hits.map((h) => h.line),
              ),
            };
    }
    this.verdicts.set(sha, v);
    return v;
  }
}

/** A change with a parent version at the same path to compare with (not an addition). */
function hasOldSide(ch: { status: string; srcMode: string; srcSha: string }): boolean {
  return ch.status !== 'A' && ch.srcSha !== NULL_SHA && ch.srcMode !== '000000' && ch.srcMode !== '160000';
}

/** One entry per violating line (first match wins), in line order, keyed by the line's content. */
function lineMatches(matcher: Matcher, text: string, lines: readonly number[]): LineMatch[] {
  const unique = [...new Set(lines)].sort((a, b) => a - b);
  if (unique.length === 0) return [];
  if (matcher.mode === 'must_contain') return [{ line: 1, key: ABSENT }];
  const out: LineMatch[] = [];
  let lineNo = 1;
  let start = 0;
  for (const want of unique) {
    while (lineNo < want) {
      const nl = text.indexOf('\n', start);
      if (nl === -1) break;
      start = nl + 1;
      lineNo += 1;
    }
    const nl = text.indexOf('\n', start);
    out.push({ line: want, key: lineKey(text.slice(start, nl === -1 ? text.length : nl)) });
  }
  return out;
}
