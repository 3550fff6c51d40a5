/**
 * Required literals: a cheap, exact "this pattern cannot match this text" before any regex runs
 * (docs/hooks.md "Speed"). re2js itself derives, from each pattern's simplified parse, a tree of
 * literals of which any match must contain enough (`RE2.prefilter`: exact strings under AND/OR;
 * case-folded literals are left out), and refuses to search a text that lacks them. This module
 * reads that same tree, so a (file, pattern) pair it rules out is one re2js would find nothing in:
 * the judgment cannot change. What it adds is speed: every literal of every pattern is looked for
 * in ONE pass over the text (an Aho–Corasick automaton over UTF-16 code units, linear in the text
 * whatever the patterns), instead of one regex scan per pattern or per flag set.
 */
import type { RE2JS } from 're2js';

/** A literal condition: the literal with this id occurs, or all / any of the parts hold. */
export type LiteralTree =
  | { readonly kind: 'literal'; readonly id: number }
  | { readonly kind: 'all' | 'any'; readonly parts: readonly LiteralTree[] };

/** re2js's prefilter node types (RE2.prefilter; `Prefilter.Type` in its sources; 0 is NONE). */
const EXACT = 1;
const AND = 2;
const OR = 3;

interface Re2Prefilter {
  readonly type: number;
  readonly subs: readonly Re2Prefilter[];
  readonly str: string;
}

/**
 * A literal that long already says enough; cutting it keeps the automaton small (a text holding
 * the whole literal holds its start too, so the cut condition is still necessary).
 */
const MAX_LITERAL_UNITS = 64;

/** Literal strings by id, shared by the trees of many patterns. */
export class LiteralTable {
  readonly literals: string[] = [];
  private readonly ids = new Map<string, number>();

  id(literal: string): number {
    // Never between the two halves of a surrogate pair: the cut stays a real string (UTF-8 encodable).
    const end = /[\ud800-\udbff]/.test(literal[MAX_LITERAL_UNITS - 1] ?? '') ? MAX_LITERAL_UNITS - 1 : MAX_LITERAL_UNITS;
    const cut = literal.slice(0, end);
    let id = this.ids.get(cut);
    if (id === undefined) {
      id = this.literals.length;
      this.literals.push(cut);
      this.ids.set(cut, id);
    }
    return id;
  }
}

/**
 * The literal tree every match of `re2` needs, or null when re2js knows none (a case-folded
 * pattern, `[a-z]+`, …) or its tree has a shape this reader does not know (then no screen: the
 * pattern is simply searched, as without this module).
 */
export function requiredLiterals(re2: RE2JS, table: LiteralTable): LiteralTree | null {
  let root: unknown;
  try {
    root = (re2.re2() as unknown as { prefilter?: unknown }).prefilter;
  } catch {
    return null;
  }
  if (root === null || root === undefined) return null;
  return convert(root as Re2Prefilter, table);
}

/** The tree "every one of these literals occurs", or null for none. Pure apart from the table's ids. */
export function allOf(literals: readonly string[], table: LiteralTable): LiteralTree | null {
  const parts = literals.filter((l) => l !== '').map((l): LiteralTree => ({ kind: 'literal', id: table.id(l) }));
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : { kind: 'all', parts };
}

function convert(node: Re2Prefilter, table: LiteralTable): LiteralTree | null {
  if (typeof node !== 'object' || node === null) return null;
  if (node.type === EXACT) {
    return typeof node.str === 'string' && node.str.length > 0 ? { kind: 'literal', id: table.id(node.str) } : null;
  }
  if ((node.type === AND || node.type === OR) && Array.isArray(node.subs) && node.subs.length > 0) {
    const parts: LiteralTree[] = [];
    for (const sub of node.subs) {
      const part = convert(sub, table);
      if (part === null) {
        // A part that says nothing: an AND simply needs the others; an OR then needs nothing.
        if (node.type === OR) return null;
        continue;
      }
      parts.push(part);
    }
    if (parts.length === 0) return null;
    return parts.length === 1 ? parts[0]! : { kind: node.type === AND ? 'all' : 'any', parts };
  }
  // NONE (no condition) or a node this reader does not know: no screen.
  return null;
}

/** With this many distinct first units or fewer, the root skips ahead with indexOf (else unit by unit). */
const MAX_JUMP_UNITS = 3;

/** Automata larger than this many table cells (×4 bytes) are not built: no screen then. */
const MAX_TABLE_CELLS = 1 << 22;

/** A scanner for the literals, or null when its table would be too large (then nothing is screened). */
export function literalScanner(literals: readonly string[]): LiteralScanner | null {
  if (literals.length === 0) return null;
  const units = new Set<number>();
  let states = 1;
  for (const lit of literals) {
    states += lit.length;
    for (let i = 0; i < lit.length; i += 1) units.add(lit.charCodeAt(i));
  }
  return states * (units.size + 1) <= MAX_TABLE_CELLS ? new LiteralScanner(literals) : null;
}

/** True when the tree can hold given which literals occur (`present[id] === stamp`). Pure. */
export function possible(tree: LiteralTree, present: Int32Array, stamp: number): boolean {
  if (tree.kind === 'literal') return present[tree.id] === stamp;
  if (tree.kind === 'all') {
    for (const p of tree.parts) if (!possible(p, present, stamp)) return false;
    return true;
  }
  for (const p of tree.parts) if (possible(p, present, stamp)) return true;
  return false;
}

/**
 * Finds which of many literals occur in a text in one pass: an Aho–Corasick automaton over UTF-16
 * code units (the units re2js searches a JavaScript string in). Each text costs one table step
 * per code unit plus one step per literal found at most, whatever the number of literals.
 */
export class LiteralScanner {
  /** Code unit → column of the transition table (0: a unit that is in no literal). */
  private readonly unitClass = new Uint16Array(65536);
  private readonly width: number;
  /** Transition table, states × width. */
  private readonly next: Int32Array;
  /** Literal ending at a state, or -1. */
  private readonly ends: Int32Array;
  /** The nearest shorter state (by failure links) where a literal ends, or 0. */
  private readonly outLink: Int32Array;
  private readonly reports: Uint8Array;
  /** `present[id] === stamp` after a scan: literal `id` occurred in the last text. */
  readonly present: Int32Array;
  stamp = 0;
  /** The distinct first code units of the literals (as one-unit strings), and a lookup of them. */
  private readonly firstUnits: string[] = [];
  private readonly isFirst = new Uint8Array(65536);
  private readonly nextAt: Int32Array;

  constructor(literals: readonly string[]) {
    for (const lit of literals) {
      const u = lit.charCodeAt(0);
      if (this.isFirst[u] === 0) {
        this.isFirst[u] = 1;
        this.firstUnits.push(lit[0]!);
      }
    }
    this.nextAt = new Int32Array(this.firstUnits.length);
    let classes = 0;
    for (const lit of literals) {
      for (let i = 0; i < lit.length; i += 1) {
        const u = lit.charCodeAt(i);
        if (this.unitClass[u] === 0) this.unitClass[u] = ++classes;
      }
    }
    this.width = classes + 1;
    // The trie: goto[state * width + class] (0 = none yet; the root is state 0, never a target).
    let states = 1;
    for (const lit of literals) states += lit.length;
    const trie = new Int32Array(states * this.width);
    const ends = new Int32Array(states).fill(-1);
    let used = 1;
    literals.forEach((lit, id) => {
      let s = 0;
      for (let i = 0; i < lit.length; i += 1) {
        const at = s * this.width + this.unitClass[lit.charCodeAt(i)]!;
        if (trie[at] === 0) trie[at] = used++;
        s = trie[at]!;
      }
      ends[s] = id;
    });
    // Breadth-first: failure links, the full transition table and output links.
    const next = new Int32Array(used * this.width);
    const fail = new Int32Array(used);
    const outLink = new Int32Array(used);
    const queue = new Int32Array(used);
    let head = 0;
    let tail = 0;
    for (let c = 1; c < this.width; c += 1) {
      const t = trie[c]!;
      next[c] = t;
      if (t !== 0) queue[tail++] = t;
    }
    while (head < tail) {
      const s = queue[head++]!;
      const f = fail[s]!;
      outLink[s] = ends[f]! >= 0 ? f : outLink[f]!;
      for (let c = 1; c < this.width; c += 1) {
        const t = trie[s * this.width + c]!;
        if (t !== 0) {
          fail[t] = next[f * this.width + c]!;
          next[s * this.width + c] = t;
          queue[tail++] = t;
        } else next[s * this.width + c] = next[f * this.width + c]!;
      }
    }
    this.next = next;
    this.ends = ends.subarray(0, used);
    this.outLink = outLink;
    this.reports = new Uint8Array(used);
    for (let s = 1; s < used; s += 1) this.reports[s] = this.ends[s]! >= 0 || outLink[s] !== 0 ? 1 : 0;
    this.present = new Int32Array(literals.length);
  }

  /** Scans `text` and returns how many literals occur; afterwards `present[id] === stamp` for exactly those. */
  scan(text: string): number {
    const stamp = ++this.stamp;
    const { unitClass, next, width, reports, ends, outLink, present, firstUnits, isFirst } = this;
    const n = text.length;
    const jump = firstUnits.length <= MAX_JUMP_UNITS;
    const nextAt = this.nextAt.fill(-1);
    let left = present.length;
    let s = 0;
    let i = 0;
    while (i < n) {
      if (s === 0) {
        // At the root only a literal's first unit leads anywhere: skip to the next one, with
        // indexOf when there are few (each unit's search resumes where it stopped: linear).
        if (jump) {
          let best = n;
          for (let k = 0; k < firstUnits.length; k += 1) {
            let at = nextAt[k]!;
            if (at < i) {
              at = text.indexOf(firstUnits[k]!, i);
              nextAt[k] = at = at === -1 ? n : at;
            }
            if (at < best) best = at;
          }
          i = best;
        } else while (i < n && isFirst[text.charCodeAt(i)] === 0) i += 1;
        if (i >= n) break;
      }
      s = next[s * width + unitClass[text.charCodeAt(i)]!]!;
      i += 1;
      if (reports[s] === 0) continue;
      // Every literal ending here: this state's and its output links'. A literal already found
      // in this text had its own links walked then, so the walk stops there (linear overall).
      for (let t = ends[s]! >= 0 ? s : outLink[s]!; t !== 0; t = outLink[t]!) {
        const id = ends[t]!;
        if (present[id] === stamp) break;
        present[id] = stamp;
        left -= 1;
      }
      if (left === 0) break;
    }
    return present.length - left;
  }
}
