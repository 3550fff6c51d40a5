/**
 * Searching only where a match can be (docs/lifecycle.md "Speed"). Every match of a pattern with
 * required literals (src/match/literals.ts) contains an occurrence of one of them; when the
 * compiled program also says how far a match can reach from that occurrence — at most `width`
 * code units long, or never across a line feed — every match lies in a small window around an
 * occurrence, and only those windows need re2js. A whole file is searched in one pass otherwise,
 * and re2js's general search is the slow part of measuring a long history: `\bvar\s` is in
 * almost every old JavaScript file, and a leading `\b` defeats re2js's own literal skipping.
 *
 * Exactness: `findMatches` yields exactly the matches, in order, that re2js's sequential
 * `find()` over the whole text yields (test/match/window-search.test.ts compares both on
 * generated patterns and texts). Why: (1) every accepted string contains a witness literal, so
 * every match lies inside the window of an occurrence it contains, and windows that overlap are
 * merged, so a match never straddles two; (2) a window is searched with one code unit of the
 * real text on each side, so `\b`, `^`, `$` and their multi-line forms see the same neighbours
 * there as in the whole text, and no match can reach that context (it would leave its window);
 * (3) the leftmost-first match at a position depends only on the text it can reach, which is
 * the same. Patterns with lookbehind (which reads arbitrarily far back) get no plan.
 *
 * Linear time stays: each literal is looked for with one forward indexOf walk, merged windows
 * are disjoint, and each is searched by re2js (linear in its length).
 */
import type { RE2JS } from 're2js';
import type { EvaluateOptions, Evaluation, Hit, Matcher } from './kind.js';
import { LiteralTable, requiredLiterals, type LiteralTree } from './literals.js';
import { regexParts } from './regex.js';

/** How a pattern may be searched window by window; null from `searchPlan` when it may not. */
export interface SearchPlan {
  /** Every match contains an occurrence of at least one of these (non-empty) literals. */
  readonly literals: readonly string[];
  /** The most UTF-16 code units a match can span, or null when unbounded. */
  readonly width: number | null;
  /** No match can contain a line feed. */
  readonly singleLine: boolean;
}

/** re2js's instruction codes (`Inst` in its sources). */
const ALT = 1;
const ALT_MATCH = 2;
const CAPTURE = 3;
const EMPTY_WIDTH = 4;
const FAIL = 5;
const MATCH = 6;
const NOP = 7;
const RUNE = 8;
const RUNE1 = 9;
const RUNE_ANY = 10;
const RUNE_ANY_NOT_NL = 11;
/** re2js's FOLD_CASE bit on a rune instruction's `arg`. */
const FOLD_CASE = 1;
/** Every empty-width assertion bit re2js knows (begin/end line, begin/end text, word boundary, not). */
const KNOWN_EMPTY = 63;

interface Re2Inst {
  readonly op: number;
  readonly out: number;
  readonly arg: number;
  readonly runes: ArrayLike<number>;
}

interface Re2Prog {
  readonly inst: readonly Re2Inst[];
  readonly start: number;
  readonly numLb: number;
}

/** Beyond this many instructions the program is not analysed (no plan: the whole text is searched). */
const MAX_ANALYSED_INSTRUCTIONS = 4096;
/** A window wider than this is no saving worth its bookkeeping: treated as unbounded. */
const MAX_WIDTH = 1024;
/** More witness literals than this: one indexOf walk each would cost more than it saves. */
const MAX_WITNESSES = 8;

/** What one rune instruction can consume: whether a line feed, and how many code units at most. */
function runeReach(inst: Re2Inst): { newline: boolean; units: number } | null {
  if (inst.op === RUNE_ANY) return { newline: true, units: 2 };
  if (inst.op === RUNE_ANY_NOT_NL) return { newline: false, units: 2 };
  const runes = inst.runes;
  if (runes === null || typeof runes !== 'object' || typeof runes.length !== 'number') return null;
  if (runes.length === 1) {
    const r = runes[0]!;
    // Case folding never pairs the line feed with anything; a folded rune may have an astral partner.
    return { newline: r === 10, units: r > 0xffff || (inst.arg & FOLD_CASE) !== 0 ? 2 : 1 };
  }
  if (runes.length === 0 || runes.length % 2 !== 0) return null;
  let newline = false;
  let units = 1;
  for (let i = 0; i < runes.length; i += 2) {
    if (runes[i]! <= 10 && 10 <= runes[i + 1]!) newline = true;
    if (runes[i + 1]! > 0xffff) units = 2;
  }
  return { newline, units: (inst.arg & FOLD_CASE) !== 0 ? 2 : units };
}

/** The width bound and single-line property of a compiled program, or null when it cannot be told. */
function analyse(prog: Re2Prog): { width: number | null; singleLine: boolean } | null {
  const insts = prog.inst;
  if (!Array.isArray(insts) || insts.length > MAX_ANALYSED_INSTRUCTIONS || !(prog.numLb === 0 || prog.numLb === undefined)) return null;
  const n = insts.length;
  const next = (pc: number): number[] => {
    const i = insts[pc]!;
    if (i.op === ALT || i.op === ALT_MATCH) return [i.out, i.arg];
    if (i.op === MATCH || i.op === FAIL) return [];
    return [i.out];
  };
  // Iterative depth-first walk from the start: the longest path to MATCH in code units (-1: none), and any cycle.
  const longest = new Int32Array(n);
  const unitsOf = new Int32Array(n);
  const state = new Uint8Array(n); // 0 new, 1 on the walk's stack, 2 done
  let cyclic = false;
  let singleLine = true;
  const stack: { pc: number; succ: number[]; k: number }[] = [];
  const enter = (pc: number): boolean => {
    if (!Number.isInteger(pc) || pc < 0 || pc >= n) return false;
    const inst = insts[pc]!;
    switch (inst.op) {
      case ALT:
      case ALT_MATCH:
      case CAPTURE:
      case NOP:
      case MATCH:
      case FAIL:
        break;
      case EMPTY_WIDTH:
        if ((inst.arg & ~KNOWN_EMPTY) !== 0) return false;
        break;
      case RUNE:
      case RUNE1:
      case RUNE_ANY:
      case RUNE_ANY_NOT_NL: {
        const reach = runeReach(inst);
        if (reach === null) return false;
        if (reach.newline) singleLine = false;
        unitsOf[pc] = reach.units;
        break;
      }
      default:
        return false; // lookbehind instructions, or an opcode this reader does not know
    }
    state[pc] = 1;
    stack.push({ pc, succ: next(pc), k: 0 });
    return true;
  };
  if (!enter(prog.start)) return null;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.k < frame.succ.length) {
      const s = frame.succ[frame.k++]!;
      if (state[s] === 1) cyclic = true;
      else if (state[s] === 0 && !enter(s)) return null;
      continue;
    }
    stack.pop();
    state[frame.pc] = 2;
    let best = insts[frame.pc]!.op === MATCH ? 0 : -1;
    // A successor still on the stack closes a cycle (width unbounded); the others are done.
    for (const s of frame.succ) if (state[s] === 2 && longest[s]! > best) best = longest[s]!;
    longest[frame.pc] = best < 0 ? -1 : best + unitsOf[frame.pc]!;
  }
  const w = longest[prog.start]!;
  const width = cyclic || w < 0 || w > MAX_WIDTH ? null : w;
  return { width, singleLine };
}

/** Literals of which every match holds at least one: all of an `any`, the most selective part of an `all`. */
function witnesses(tree: LiteralTree, table: LiteralTable): string[] {
  if (tree.kind === 'literal') return [table.literals[tree.id]!];
  const sets = tree.parts.map((p) => witnesses(p, table));
  if (tree.kind === 'any') return [...new Set(sets.flat())];
  // Fewest literals, then the longest shortest literal: fewer and rarer occurrences.
  const score = (s: string[]): number => s.length * 1000 - Math.min(...s.map((l) => l.length));
  return sets.reduce((a, b) => (score(b) < score(a) ? b : a));
}

/** How a matcher may be searched window by window, or null (another kind, or search the whole text). */
export function windowPlan(matcher: Matcher): SearchPlan | null {
  const rx = regexParts(matcher);
  return rx === null ? null : searchPlan(rx.re2);
}

/** How `re2` may be searched window by window, or null (then search the whole text). */
export function searchPlan(re2: RE2JS): SearchPlan | null {
  let prog: Re2Prog | undefined;
  try {
    prog = (re2.re2() as unknown as { prog?: Re2Prog }).prog;
  } catch {
    return null;
  }
  if (prog === undefined || prog === null || typeof prog !== 'object') return null;
  const table = new LiteralTable();
  const tree = requiredLiterals(re2, table);
  if (tree === null) return null;
  const shape = analyse(prog);
  if (shape === null || (shape.width === null && !shape.singleLine)) return null;
  const literals = witnesses(tree, table);
  if (literals.length === 0 || literals.length > MAX_WITNESSES || literals.some((l) => l.length === 0)) return null;
  return { literals, width: shape.width, singleLine: shape.singleLine };
}

/**
 * Windows this close are searched as one: a gap holds no match (each match lies in the window of
 * an occurrence it contains), and a short gap costs re2js less than a second search does.
 */
const MERGE_GAP = 32;

const isHigh = (u: number): boolean => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number): boolean => u >= 0xdc00 && u <= 0xdfff;

/**
 * The windows [start, end) of `text` where matches can be, sorted and disjoint. Each occurrence
 * of a witness literal gives the span a match holding it can reach: within `width` of it, and
 * within its line for a single-line pattern. Windows closer than `mergeGap` are joined (-1: only
 * those that overlap).
 */
export function matchWindows(plan: SearchPlan, text: string, mergeGap = MERGE_GAP): number[] {
  const { literals } = plan;
  if (literals.length === 1) return literalWindows(plan, literals[0]!, text, mergeGap);
  const spans: [number, number][] = [];
  for (const lit of literals) {
    const w = literalWindows(plan, lit, text, mergeGap);
    for (let i = 0; i < w.length; i += 2) spans.push([w[i]!, w[i + 1]!]);
  }
  spans.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: number[] = [];
  for (const [a, b] of spans) addWindow(out, a, b, mergeGap);
  return out;
}

/** Appends [a, b) to sorted windows, joined with the last one when they overlap or are within `mergeGap`. */
function addWindow(out: number[], a: number, b: number, mergeGap: number): void {
  const last = out.length - 1;
  if (last > 0 && a <= out[last]! + mergeGap) {
    if (b > out[last]!) out[last] = b;
  } else out.push(a, b);
}

/** The windows of one literal's occurrences, sorted and joined (they come in order, so no sort is needed). */
function literalWindows(plan: SearchPlan, lit: string, text: string, mergeGap: number): number[] {
  const n = text.length;
  const out: number[] = [];
  const { width, singleLine } = plan;
  const len = lit.length;
  // The line around the current occurrence, advanced forward only (linear): [lineStart, lineEnd).
  let lineStart = 0;
  let lineEnd = singleLine ? text.indexOf('\n') : n;
  if (lineEnd === -1) lineEnd = n;
  for (let o = text.indexOf(lit); o !== -1; o = text.indexOf(lit, o + 1)) {
    if (singleLine) {
      while (lineEnd < o) {
        lineStart = lineEnd + 1;
        lineEnd = text.indexOf('\n', lineStart);
        if (lineEnd === -1) lineEnd = n;
      }
    }
    let a = singleLine ? lineStart : 0;
    let b = singleLine ? lineEnd : n;
    if (width !== null) {
      a = Math.max(a, o + len - width);
      b = Math.min(b, o + width);
    }
    // Never start between the halves of a surrogate pair (the whole-text search never does).
    if (a > 0 && isLow(text.charCodeAt(a)) && isHigh(text.charCodeAt(a - 1))) a -= 1;
    addWindow(out, a, b, mergeGap);
    // The whole line is this occurrence's window: later ones on it add nothing.
    if (singleLine && width === null) o = Math.max(o, lineEnd - 1);
  }
  return out;
}

/**
 * Calls `visit(start, end, matched)` for each match of `re2` in `text`, in order — exactly the
 * matches of re2js's sequential `find()` over the whole text — searching only the windows of
 * `plan`. `visit` returns false to stop. `matched` is the matched text.
 */
export function findMatches(
  re2: RE2JS,
  plan: SearchPlan,
  text: string,
  visit: (start: number, end: number, matched: () => string) => boolean,
  mergeGap = MERGE_GAP,
): void {
  const windows = matchWindows(plan, text, mergeGap);
  const n = text.length;
  for (let w = 0; w < windows.length; w += 2) {
    const a = windows[w]!;
    const b = windows[w + 1]!;
    // One code unit of context on each side: what `\b`, `^` and `$` look at there.
    const from = a > 0 ? a - 1 : 0;
    const to = b < n ? b + 1 : n;
    const m = re2.matcher(text.slice(from, to));
    let pos = a - from;
    while (pos <= to - from && m.find(pos)) {
      const s = m.start() + from;
      if (s >= b) break;
      const e = m.end() + from;
      if (!visit(s, e, () => m.group() ?? '')) return;
      // Matches hold a literal, so are never empty; stepping one unit keeps an empty one from looping.
      pos = (e > s ? e : e + 1) - from;
    }
  }
}

/**
 * `evaluate` (src/match/detector.ts) for a `match`-mode matcher searched window by window: the
 * same hits (line, endLine, column, matched text), the same exclusion of lines matching
 * `exclude`, the same `maxHits` cut and time budget. Positions come from a forward walk over the
 * line feeds, never from a table of every line.
 */
export function evaluateInWindows(m: Matcher, plan: SearchPlan, text: string, options: EvaluateOptions = {}): WindowEvaluation {
  const matcher = regexParts(m);
  if (matcher === null) throw new Error(`a ${m.kind} detector has no window plan`);
  const budgetMs = options.budgetMs ?? 250;
  const maxHits = options.maxHits ?? 1000;
  const overrun = `matching took longer than the ${budgetMs} ms budget`;
  const started = performance.now();
  if (matcher.mode === 'must_contain') {
    let found = false;
    findMatches(matcher.re2, plan, text, () => {
      found = true;
      return false;
    });
    if (performance.now() - started > budgetMs) return { hits: [], lineTexts: [], error: overrun };
    return found ? { hits: [], lineTexts: [] } : { hits: [{ line: 1, endLine: 1, column: 1, match: '' }], lineTexts: [lineOne(text)] };
  }
  const hits: Hit[] = [];
  const lineTexts: string[] = [];
  const lines = new LineWalk(text);
  let error: string | undefined;
  findMatches(matcher.re2, plan, text, (start, end, matched) => {
    const line = lines.lineAt(start);
    const column = start - lines.lineStart + 1;
    const lineText = lines.lineText();
    if (matcher.exclude?.matcher(lineText).find()) {
      if (performance.now() - started > budgetMs) {
        error = overrun;
        return false;
      }
      return true;
    }
    const endLine = end > start ? line + countLineFeeds(text, start, end - 1) : line;
    hits.push({ line, endLine, column, match: matched().slice(0, 200) });
    lineTexts.push(lineText);
    if (hits.length >= maxHits) return false;
    if (performance.now() - started > budgetMs) {
      error = overrun;
      return false;
    }
    return true;
  });
  if (error === undefined && performance.now() - started > budgetMs) error = overrun;
  return error === undefined ? { hits, lineTexts } : { hits, lineTexts, error };
}

/** An evaluation with the text of each hit's line (same index), which callers would otherwise look up again. */
export interface WindowEvaluation extends Evaluation {
  readonly lineTexts: readonly string[];
}

const lineOne = (text: string): string => {
  const nl = text.indexOf('\n');
  return nl === -1 ? text : text.slice(0, nl);
};

/** Line feeds in text[from, to). */
function countLineFeeds(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}

/**
 * The line of offsets asked for in increasing order, found by walking forward over the line
 * feeds once (linear in the text however many offsets): `lineAt(offset)` moves to the line
 * holding `offset`; `lineStart` and `lineText()` then describe that line.
 */
export class LineWalk {
  line = 1;
  lineStart = 0;
  /** The line feed ending the current line, or the text's length for the last line. */
  private lineEnd: number;

  constructor(private readonly text: string) {
    const nl = text.indexOf('\n');
    this.lineEnd = nl === -1 ? text.length : nl;
  }

  /** The 1-based line of `offset` (never before the last offset asked for). */
  lineAt(offset: number): number {
    const text = this.text;
    while (this.lineEnd < offset && this.lineEnd < text.length) {
      this.line += 1;
      this.lineStart = this.lineEnd + 1;
      const nl = text.indexOf('\n', this.lineStart);
      this.lineEnd = nl === -1 ? text.length : nl;
    }
    return this.line;
  }

  /** The current line's text, without its line feed. */
  lineText(): string {
    return this.text.slice(this.lineStart, this.lineEnd);
  }
}
