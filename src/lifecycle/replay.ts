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
import { hash } from 'node:crypto';
import { NULL_SHA } from '../git/core.js';
import type { HistoryCommit } from '../git/history.js';
import { entryPathFilter } from '../match/applies.js';
import { compileDetector, evaluate, type Matcher } from '../match/detector.js';
import { LiteralTable, literalScanner, possible, type LiteralScanner, type LiteralTree } from '../match/literals.js';
import { evaluateInWindows, windowPlan, type SearchPlan } from '../match/window-search.js';
import { LineTable } from '../text-position.js';
import type { ConstraintEntry } from '../types.js';
import { labelKey, withVerdict, type EvaluationError, type MeasuredHit, type Verdict } from './measurement.js';

/** git's own binary heuristic, as the gate uses it: a NUL byte in the first 8 KB. */
export function isBinary(data: Buffer): boolean {
  return data.subarray(0, 8192).includes(0);
}

/**
 * Which constraints a text can match at all, by the literals every match needs
 * (src/match/literals.ts, read from re2js's own prefilter): a text lacking them is one re2js
 * would find nothing in, so its verdict is known without a search (docs/lifecycle.md "Speed").
 * One scan per text serves every constraint measured together.
 */
export class BlobScreen {
  private readonly trees = new Map<Matcher, LiteralTree>();
  private readonly scanner: LiteralScanner | null;

  constructor(matchers: readonly Matcher[]) {
    const table = new LiteralTable();
    for (const m of matchers) {
      const tree = this.trees.has(m) ? null : m.requiredLiterals(table);
      if (tree !== null) this.trees.set(m, tree);
    }
    this.scanner = literalScanner(table.literals);
  }

  /** The matchers `text` cannot match (each a subset of those given); empty when nothing is screened. */
  ruledOut(text: string): ReadonlySet<Matcher> {
    const scanner = this.scanner;
    if (scanner === null) return NONE_RULED_OUT;
    scanner.scan(text);
    let out: Set<Matcher> | null = null;
    for (const [m, tree] of this.trees) if (!possible(tree, scanner.present, scanner.stamp)) (out ??= new Set()).add(m);
    return out ?? NONE_RULED_OUT;
  }
}

const NONE_RULED_OUT: ReadonlySet<Matcher> = new Set();

/**
 * The blobs of one batch, shared by every constraint replayed over it: each blob is decoded once
 * (not once per constraint) and only when a replay asks for it, and screened once for all of
 * them; dropped with the batch.
 */
export class BatchBlobs {
  private readonly texts = new Map<string, string | null>();
  private readonly screened = new Map<string, ReadonlySet<Matcher>>();

  constructor(
    private readonly blobs: ReadonlyMap<string, Buffer | null>,
    private readonly screen: BlobScreen | null = null,
  ) {}

  /** The blob's text; null when it is missing or binary (not evaluated). */
  text(sha: string): string | null {
    const known = this.texts.get(sha);
    if (known !== undefined) return known;
    const data = this.blobs.get(sha) ?? null;
    const text = data === null || isBinary(data) ? null : data.toString('utf8');
    this.texts.set(sha, text);
    return text;
  }

  /** False when the blob's text (`text(sha)`, not null) lacks what every match of `matcher` needs. */
  mayMatch(sha: string, text: string, matcher: Matcher): boolean {
    if (this.screen === null) return true;
    let out = this.screened.get(sha);
    if (out === undefined) {
      out = this.screen.ruledOut(text);
      this.screened.set(sha, out);
    }
    return !out.has(matcher);
  }
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
  const applies = entryPathFilter(entry, { requireGlobs: false });
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

// One-shot hash: no Hash object per line (a measurable share of a long walk).
const lineKey = (text: string): string => hash('sha1', text, 'base64');

/**
 * Bounded cache of blob verdicts (a blob seen again: a revert, a copy, a side branch's parent),
 * by count and by violating lines held, so files with thousands of hits cannot make it grow
 * with the history: 50,000 line matches are a few MB.
 */
const VERDICT_CACHE = 2048;
const VERDICT_CACHE_LINES = 50_000;

const verdictWeight = (v: BlobVerdict): number => 1 + (v !== null && 'matches' in v ? v.matches.length : 0);

interface PathState {
  /** The blob of the path's last change. */
  readonly sha: string;
  /** Per line key: the hits (by index) of its copies in that blob (undefined: a copy older than the range). */
  readonly lines: Map<string, (number | undefined)[]>;
}

const EMPTY_COUNTS: ReadonlyMap<string, number> = new Map();

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
  /**
   * Search only the windows around the pattern's required literals where it has a plan
   * (src/match/window-search.ts: the same matches as the whole-text search); default true.
   * False searches every text whole (the tests compare both).
   */
  readonly windows?: boolean;
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
  /** Interned commit ids and paths of the hits (see intern). */
  private readonly strings = new Map<string, string>();
  /** The summed verdictWeight of the cached verdicts. */
  private verdictLines = 0;
  /**
   * Per path: the blob of its last change and, per line key, the hits (by index) of the copies of
   * the violating lines in it. When a change's old side is that blob, its matches are known
   * without reading or evaluating it again: the parent side costs nothing on a linear history.
   */
  private readonly present = new Map<string, PathState>();
  /** What `present` will hold once the commits handed to `needed` so far are added (path → blob). */
  private readonly planned = new Map<string, string>();
  /** Where matches can be, when the pattern says (null: every text is searched whole). */
  private readonly plan: SearchPlan | null;
  /**
   * Cached verdicts `needed` counted on for commits not added yet (sha → how many times), and
   * which per commit, in order: `trim` keeps them, so a caller may ask `needed` for the next
   * commits before the previous ones are added (reading ahead) and still find them in `add`.
   */
  private readonly pinned = new Map<string, number>();
  private readonly pinsByCommit: string[][] = [];

  constructor(
    private readonly prepared: Extract<Prepared, { ok: true }>,
    private readonly options: ReplayOptions,
  ) {
    this.plan = options.windows === false ? null : windowPlan(prepared.matcher);
  }

  /**
   * True when texts are searched only around the pattern's literals: a text without them costs
   * one indexOf per literal, so the shared literal screen (BlobScreen) has nothing to add.
   */
  get searchesWindows(): boolean {
    return this.plan !== null;
  }

  /** The constraint's matcher (for a BlobScreen shared by the replays of one walk). */
  get matcher(): Matcher {
    return this.prepared.matcher;
  }

  /** The changes of a commit this constraint evaluates. */
  private changes(commit: HistoryCommit) {
    return commit.changes.filter((ch) => evaluable(ch.dstMode, ch.dstSha, ch.status) && this.prepared.applies(ch.path));
  }

  /**
   * Blob ids `add` will need for this commit and has no verdict for (the cached ones are kept
   * warm). Must be called for every commit, in the order they are then added.
   */
  needed(commit: HistoryCommit): string[] {
    const out: string[] = [];
    const pins: string[] = [];
    for (const ch of commit.changes) if (ch.status === 'D') this.planned.delete(ch.path);
    for (const ch of this.changes(commit)) {
      const wanted = [ch.dstSha];
      // The parent side is the blob `present` will hold for the path by then: nothing to read.
      if (hasOldSide(ch) && this.planned.get(ch.path) !== ch.srcSha) wanted.push(ch.srcSha);
      this.planned.set(ch.path, ch.dstSha);
      for (const sha of wanted) {
        const v = this.verdicts.get(sha);
        if (v === undefined) out.push(sha);
        else {
          this.verdicts.delete(sha);
          this.verdicts.set(sha, v);
          pins.push(sha);
          this.pinned.set(sha, (this.pinned.get(sha) ?? 0) + 1);
        }
      }
    }
    this.pinsByCommit.push(pins);
    return out;
  }

  /** Replays one commit; `blobs` holds at least what `needed` returned. */
  add(commit: HistoryCommit, blobs: BatchBlobs): void {
    for (const ch of commit.changes) {
      if (ch.status === 'D') this.present.delete(ch.path);
    }
    for (const ch of this.changes(commit)) {
      const before = hasOldSide(ch) ? this.parentCounts(ch.path, ch.srcSha, blobs) : EMPTY_COUNTS;
      const now = this.verdictOf(ch.dstSha, blobs);
      if (now === null) {
        // Not evaluated (binary or missing): no violating line to carry to the next change.
        this.present.set(ch.path, { sha: ch.dstSha, lines: new Map() });
        continue;
      }
      this.samples += 1;
      if ('error' in now) {
        this.errors.push({ commit: commit.sha, path: ch.path, message: now.error });
        this.present.set(ch.path, { sha: ch.dstSha, lines: new Map() });
        continue;
      }
      this.compare(commit.sha, ch.path, ch.dstSha, before, now.matches);
    }
    for (const sha of this.pinsByCommit.shift() ?? []) {
      const left = this.pinned.get(sha)! - 1;
      if (left === 0) this.pinned.delete(sha);
      else this.pinned.set(sha, left);
    }
  }

  /**
   * Drops the least recently used verdicts beyond the cache size, except those `needed` promised
   * to commits not added yet; call between batches (never while one is replayed).
   */
  trim(): void {
    for (const [sha, v] of this.verdicts) {
      if (this.verdicts.size <= VERDICT_CACHE && this.verdictLines <= VERDICT_CACHE_LINES) break;
      if (this.pinned.has(sha)) continue;
      this.verdicts.delete(sha);
      this.verdictLines -= verdictWeight(v);
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

  /**
   * One flat copy of each commit id and path the hits keep: strings split from a commit's log
   * record would each keep that whole record alive for as long as the hit lives.
   */
  private intern(s: string): string {
    let flat = this.strings.get(s);
    if (flat === undefined) {
      flat = Buffer.from(s, 'utf8').toString('utf8');
      this.strings.set(flat, flat);
    }
    return flat;
  }

  /** Drops everything the replay holds (call once its result is taken): the hits of a long history are many. */
  release(): void {
    this.hits.length = 0;
    this.strings.clear();
    this.present.clear();
    this.planned.clear();
    this.verdicts.clear();
    this.verdictLines = 0;
    this.pinned.clear();
    this.pinsByCommit.length = 0;
  }

  /** The commits of the hits so far (for the id prefix length). */
  hitCommits(): string[] {
    return this.hits.map((h) => h.commit);
  }

  /** How many copies of each violating line the parent's blob at `path` has (none for a binary or unreadable one). */
  private parentCounts(path: string, sha: string, blobs: BatchBlobs): ReadonlyMap<string, number> {
    const state = this.present.get(path);
    if (state?.sha === sha) {
      const counts = new Map<string, number>();
      for (const [key, copies] of state.lines) counts.set(key, copies.length);
      return counts;
    }
    const v = this.verdictOf(sha, blobs);
    const counts = new Map<string, number>();
    if (v !== null && 'matches' in v) for (const m of v.matches) counts.set(m.key, (counts.get(m.key) ?? 0) + 1);
    return counts;
  }

  private compare(commit: string, path: string, sha: string, beforeCount: ReadonlyMap<string, number>, now: readonly LineMatch[]): void {
    const known = this.present.get(path)?.lines;
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
      const hit: OpenHit = { commit: this.intern(commit), path: this.intern(path), line: m.line, seen: 0 };
      if (label !== undefined) {
        hit.verdict = label;
        this.absorbed.add(labelKey(commit, path, m.line));
      }
      copies.push(this.hits.length);
      this.hits.push(hit);
    }
    this.present.set(path, { sha, lines: next });
  }

  /** The verdict of a text with no match at all: what evaluate and lineMatches give it, without searching. */
  private get unmatched(): BlobVerdict {
    return { matches: this.prepared.matcher.mode === 'must_contain' ? [{ line: 1, key: ABSENT }] : [] };
  }

  private verdictOf(sha: string, blobs: BatchBlobs): BlobVerdict {
    const cached = this.verdicts.get(sha);
    if (cached !== undefined) return cached;
    const text = blobs.text(sha);
    let v: BlobVerdict;
    if (text === null) v = null;
    else if (!blobs.mayMatch(sha, text, this.prepared.matcher)) v = this.unmatched;
    else if (this.plan !== null) {
      const r = evaluateInWindows(this.prepared.matcher, this.plan, text, {
        budgetMs: this.options.budgetMs,
        maxHits: Number.MAX_SAFE_INTEGER,
      });
      v = r.error !== undefined ? { error: r.error } : { matches: windowLineMatches(this.prepared.matcher, r.hits, r.lineTexts) };
    } else {
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
    this.verdictLines += verdictWeight(v);
    return v;
  }
}

/** A change with a parent version at the same path to compare with (not an addition). */
function hasOldSide(ch: { status: string; srcMode: string; srcSha: string }): boolean {
  return ch.status !== 'A' && ch.srcSha !== NULL_SHA && ch.srcMode !== '000000' && ch.srcMode !== '160000';
}

/** lineMatches for hits in line order with the text of each hit's line (`evaluateInWindows`): no line table to build. */
function windowLineMatches(matcher: Matcher, hits: readonly { readonly line: number }[], lineTexts: readonly string[]): LineMatch[] {
  if (hits.length === 0) return [];
  if (matcher.mode === 'must_contain') return [{ line: 1, key: ABSENT }];
  const out: LineMatch[] = [];
  for (let i = 0; i < hits.length; i += 1) {
    const line = hits[i]!.line;
    if (out.length > 0 && out[out.length - 1]!.line === line) continue;
    out.push({ line, key: lineKey(lineTexts[i]!) });
  }
  return out;
}

/** One entry per violating line (first match wins), in line order, keyed by the line's content. */
function lineMatches(matcher: Matcher, text: string, lines: readonly number[]): LineMatch[] {
  const unique = [...new Set(lines)].sort((a, b) => a - b);
  if (unique.length === 0) return [];
  if (matcher.mode === 'must_contain') return [{ line: 1, key: ABSENT }];
  const table = new LineTable(text);
  return unique.map((line) => ({ line, key: lineKey(table.lineText(line)) }));
}
