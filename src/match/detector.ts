/**
 * Detector evaluation over whole-file text — the one matching engine shared by the compiler's
 * replay qualification, the commit gate and history measurement, so all three agree.
 *
 * Safety (docs/stack-pitfalls.md#7): patterns run on re2js, a linear-time engine, so no pattern can hang
 * a commit — V8's backtracking engine cannot be interrupted, and patterns that safe-regex2
 * accepts still blow up there (`(a|aa)+$` with the `i` flag, `\w+x` on a long line). The price
 * is RE2 syntax: lookahead and backreferences are refused with a diagnostic (captureless
 * lookbehind runs in linear time too). Patterns with
 * catastrophic-backtracking shape (nested quantifiers, via safe-regex2) are refused too, as the
 * compiler contract asks, so a constraint stays portable to backtracking tools such as
 * `git grep -P`. Each evaluation also runs under a time budget (a huge file), whose overrun is an
 * evaluation error.
 */
import type { RE2JS, RE2Set } from 're2js';
import { re2js } from './re2.js';
import { isSafePattern } from './safe-pattern.js';
import { plainPattern, type PlainPattern } from './plain-pattern.js';
import { canonicalMode } from '../constraints/shape.js';
import { LineTable } from '../text-position.js';
import { LiteralTable, allOf, literalScanner, possible, requiredLiterals, type LiteralTree } from './literals.js';

export interface DetectorSpec {
  readonly kind: string;
  readonly mode?: string | undefined;
  readonly pattern?: string | undefined;
  readonly flags?: string | undefined;
  /** A hit on a line that also matches this is not a violation (upstream's `detector.exclude`). */
  readonly exclude?: string | undefined;
}

export interface Matcher {
  readonly kind: 'regex' | 'content_pattern';
  /** `match`: a match is a violation; `must_contain`: a file without a match is one (docs/hooks.md "Detector modes"). */
  readonly mode: 'match' | 'must_contain';
  /** The compiled pattern; for a plain pattern compiled on first use (src/match/plain-pattern.ts). */
  readonly re2: RE2JS;
  /** What is known without compiling, for a plain pattern: its required literals and a program-size bound. */
  readonly plain?: PlainPattern;
  /** The pattern without its leading inline flag group (the flags are in `flags`). */
  readonly source: string;
  readonly flags: string;
  readonly exclude?: RE2JS;
  /** The exclude pattern as written (for the matching worker). */
  readonly excludeSource?: string;
}

/**
 * Splits a leading inline flag group (`(?i)`, `(?is)`, Go RE2 and re2js syntax) off a pattern,
 * so JavaScript's parser (used to vet patterns) and the flag-keyed prefilter see plain flags.
 */
export function splitInlineFlags(pattern: string, flags = ''): { pattern: string; flags: string } {
  const m = /^\(\?([imsU]+)\)/.exec(pattern);
  if (!m) return { pattern, flags };
  const merged = [...new Set([...flags, ...m[1]!.replace('U', '')])].sort().join('');
  // `U` (ungreedy) has no JavaScript equivalent: keep it inline, re2js reads it.
  return m[1]!.includes('U')
    ? { pattern: `(?U)${pattern.slice(m[0].length)}`, flags: merged }
    : { pattern: pattern.slice(m[0].length), flags: merged };
}

export type CompileResult = { readonly ok: true; readonly matcher: Matcher } | { readonly ok: false; readonly problem: string };

const ALLOWED_FLAGS = /^[imsu]*$/;

/** re2js flag bits for JavaScript-style flags (`u` is implied: RE2 always matches code points). */
function re2Flags(flags: string): number {
  const { RE2JS } = re2js();
  return (
    (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) |
    (flags.includes('m') ? RE2JS.MULTILINE : 0) |
    (flags.includes('s') ? RE2JS.DOTALL : 0)
  );
}

/** Full re2js flag bits of a pattern: its flags, plus lookbehind support only when it has one (it costs re2js its fast paths). */
function re2Bits(pattern: string, flags: string): number {
  return re2Flags(flags) | (hasLookbehind(pattern) ? re2js().RE2JS.LOOKBEHINDS : 0);
}

const hasLookbehind = (pattern: string): boolean => /\(\?<[=!]/.test(pattern);

/** Which matchers share an RE2Set: the same re2js flag bits (re2Bits), told without loading re2js. */
function flagGroup(pattern: string, flags: string): string {
  return ['i', 'm', 's'].filter((f) => flags.includes(f)).join('') + (hasLookbehind(pattern) ? '<' : '');
}

function compileRe2(pattern: string, flags: string): { re2: RE2JS } | { problem: string } {
  try {
    return { re2: re2js().RE2JS.compile(pattern, re2Bits(pattern, flags)) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (/\(\?[=!<]|\\[1-9]|\\k</.test(pattern) || /unsupported Perl syntax|invalid escape/.test(why)) {
      return {
        problem:
          'pattern needs lookahead or a backreference, which cannot run in linear time ' +
          `(constraints use RE2 syntax; captureless lookbehind is fine): ${why}`,
      };
    }
    return { problem: `pattern does not compile: ${why}` };
  }
}

/** Why a pattern may not be used, or null. Pure. */
export function patternProblem(pattern: string, flags = ''): string | null {
  const checked = checkPattern(pattern, flags);
  return 'problem' in checked ? checked.problem : null;
}

/** The pattern compiled for re2js, or why it may not be used (one compile serves both). */
function checkPattern(pattern: string, flags: string): { re2: RE2JS } | { problem: string } {
  const vetted = vetPattern(pattern, flags);
  return vetted === null ? compileRe2(pattern, flags) : { problem: vetted };
}

/** Why a pattern may not be used, short of compiling it for re2js; null when it passes. */
function vetPattern(pattern: string, flags: string): string | null {
  if (!ALLOWED_FLAGS.test(flags)) return `flags "${flags}" are not allowed (use a subset of i, m, s, u)`;
  try {
    new RegExp(pattern, `${flags}g`);
  } catch (error) {
    return `pattern does not compile: ${error instanceof Error ? error.message : String(error)}`;
  }
  // safe-regex2's parser does not know lookbehind (and calls every such pattern unsafe); re2js
  // runs those in linear time anyway.
  if (!/\(\?<[=!]/.test(pattern) && !isSafePattern(pattern)) {
    return (
      'pattern is unsafe: nested quantifiers can backtrack catastrophically (e.g. "(a+)+"); ' +
      'rewrite it without a quantified group that itself contains a quantifier'
    );
  }
  return null;
}

/**
 * A plain pattern that passed vetting, compiled by re2js on first use. re2js accepts every plain
 * pattern (test/match/plain-pattern.test.ts), so the deferred compile cannot fail; if it ever
 * did, the error surfaces where the pattern is used, never as a silent pass.
 */
function deferredRe2(pattern: string, flags: string): () => RE2JS {
  let re2: RE2JS | null = null;
  return () => {
    if (re2 === null) {
      const compiled = compileRe2(pattern, flags);
      if ('problem' in compiled) throw new Error(`plain pattern ${JSON.stringify(pattern)} did not compile: ${compiled.problem}`);
      re2 = compiled.re2;
    }
    return re2;
  };
}

/**
 * Compiles a detector (regex or content_pattern). Other kinds are advisory-only and refused here.
 * Modes (upstream's and this project's spellings, src/constraints/shape.ts): `match`, `present`,
 * `forbid`, `must_not_contain` or none — a match is a violation; `absent`, `require`, `required`,
 * `must_contain` — a file without a match is one violation. Flags may be inline (`(?i)…`).
 */
export function compileDetector(spec: DetectorSpec): CompileResult {
  if (spec.kind !== 'regex' && spec.kind !== 'content_pattern') {
    return { ok: false, problem: `detector kind "${spec.kind}" is not enforceable (advisory only)` };
  }
  if (typeof spec.pattern !== 'string' || spec.pattern === '') return { ok: false, problem: 'detector has no pattern' };
  if (spec.kind === 'content_pattern' && spec.mode === undefined)
    return { ok: false, problem: 'content_pattern detector needs mode must_contain or must_not_contain' };
  const canonical = canonicalMode(spec.mode);
  if (canonical !== undefined && canonical !== 'required') {
    return {
      ok: false,
      problem: `detector mode "${spec.mode}" is unknown (use match, present, forbid or must_not_contain; absent, require, required or must_contain)`,
    };
  }
  const { pattern, flags } = splitInlineFlags(spec.pattern, spec.flags ?? '');
  const plain = plainPattern(pattern, flags);
  // A plain pattern is vetted now and compiled when a text needs it; any other compiles now.
  const vetted = plain === null ? null : vetPattern(pattern, flags);
  if (vetted !== null) return { ok: false, problem: vetted };
  const compiled = plain === null ? checkPattern(pattern, flags) : null;
  if (compiled !== null && 'problem' in compiled) return { ok: false, problem: compiled.problem };
  let exclude: RE2JS | undefined;
  if (spec.exclude !== undefined && spec.exclude !== '') {
    const ex = splitInlineFlags(spec.exclude);
    const checked = checkPattern(ex.pattern, ex.flags);
    if ('problem' in checked) return { ok: false, problem: `detector exclude: ${checked.problem}` };
    exclude = checked.re2;
  }
  const mode: Matcher['mode'] = canonical === 'required' ? 'must_contain' : 'match';
  const kind: Matcher['kind'] = spec.kind;
  const fields = { kind, mode, source: pattern, flags, ...(exclude ? { exclude, excludeSource: spec.exclude! } : {}) };
  if (compiled !== null) return { ok: true, matcher: { ...fields, re2: compiled.re2 } };
  const re2 = deferredRe2(pattern, flags);
  return {
    ok: true,
    matcher: {
      ...fields,
      plain: plain!,
      get re2() {
        return re2();
      },
    },
  };
}

export interface Hit {
  /** 1-based line of the match start. */
  readonly line: number;
  /** 1-based line of the match's last character (= line for a one-line match). */
  readonly endLine: number;
  /** 1-based column (UTF-16 code units, as ESLint). */
  readonly column: number;
  /** The matched text, truncated to 200 code units. */
  readonly match: string;
}

export interface Evaluation {
  readonly hits: readonly Hit[];
  /** Set when evaluation did not finish (time budget) — an evaluation error for the gate. */
  readonly error?: string;
}

export interface EvaluateOptions {
  /** Time budget in milliseconds for this file (default 250). */
  budgetMs?: number;
  /** Stop after this many hits (default 1000). */
  maxHits?: number;
}

/**
 * Evaluates a matcher over a file's text and returns violations as hits. For `match` and
 * `must_not_contain`, every match is a hit; for `must_contain`, a file without a match is one
 * hit at 1:1 (the violation is the absence).
 */
export function evaluate(matcher: Matcher, text: string, options: EvaluateOptions = {}): Evaluation {
  const budgetMs = options.budgetMs ?? 250;
  const maxHits = options.maxHits ?? 1000;
  const overrun = `matching took longer than the ${budgetMs} ms budget`;
  const started = performance.now();
  const m = matcher.re2.matcher(text);
  if (matcher.mode === 'must_contain') {
    const found = m.find();
    if (performance.now() - started > budgetMs) return { hits: [], error: overrun };
    return { hits: found ? [] : [{ line: 1, endLine: 1, column: 1, match: '' }] };
  }
  const hits: Hit[] = [];
  let lines: LineTable | null = null;
  while (m.find()) {
    lines ??= new LineTable(text);
    const start = m.start();
    const end = m.end();
    const { line, column } = lines.positionAt(start);
    // A line that also matches `exclude` is not a hit (upstream's gate, line by line).
    if (matcher.exclude?.matcher(lines.lineText(line)).find()) {
      if (performance.now() - started > budgetMs) return { hits, error: overrun };
      continue;
    }
    // The last character's line, so a hit spanning `try:\n    pass` covers both lines.
    const endLine = end > start ? lines.lineAt(end - 1) : line;
    hits.push({ line, endLine, column, match: (m.group() ?? '').slice(0, 200) });
    if (hits.length >= maxHits) break;
    if (performance.now() - started > budgetMs) return { hits, error: overrun };
  }
  if (performance.now() - started > budgetMs) return { hits, error: overrun };
  return { hits };
}

/** True when the matcher reports at least one violation in the text. */
export function violates(matcher: Matcher, text: string, options: EvaluateOptions = {}): boolean {
  const r = evaluate(matcher, text, { ...options, maxHits: 1 });
  return r.hits.length > 0;
}

/** Matchers with a larger compiled program stay out of the prefilter (see buildPrefilter). */
export const PREFILTER_MAX_PROGRAM = 200;

/** True when the matcher's program has more than `size` instructions; a plain pattern's bound may tell without compiling it. */
export function programSizeAbove(m: Matcher, size: number): boolean {
  if (m.plain !== undefined && m.plain.programSizeBound <= size) return false;
  return m.re2.programSize() > size;
}

/** Which matchers' patterns occur somewhere in a text, found in one linear pass per flag set. */
export interface Prefilter {
  /** The matchers whose pattern matches somewhere in `text` (a superset is always safe). */
  matching(text: string): ReadonlySet<Matcher>;
  /**
   * What the prefilter knows for sure about `text`: the matchers whose pattern occurs, and the
   * ones it could not decide (no set, a set that failed, a large program) — those must be
   * evaluated whatever their mode (a `must_contain` with an unknown answer is not "satisfied").
   * Every other matcher's pattern does not occur.
   */
  decide(text: string): { readonly occurring: ReadonlySet<Matcher>; readonly undecided: ReadonlySet<Matcher> };
}

/**
 * Builds a prefilter over many matchers, in two steps per text. First the required literals
 * (src/match/literals.ts): one linear pass finds which literals occur, and a matcher whose literal
 * condition fails cannot match (re2js itself would refuse to search that text). Then, only for
 * flag sets with a matcher still possible, one re2js RE2Set per flag combination, so a file costs
 * one linear scan per combination instead of one per constraint. A set that cannot be built or
 * run decides none of its members, so callers simply evaluate them.
 */
export function buildPrefilter(matchers: readonly Matcher[]): Prefilter {
  const groups = new Map<string, Matcher[]>();
  // A large program makes the set's DFA build a state per character on a long line (a 1 MB line
  // and `[a-z]{1000}[0-9]`: seconds, with no budget to stop it): such matchers stay undecided,
  // so each runs under its own bounded evaluation instead.
  const undecided: Matcher[] = [];
  for (const m of matchers) {
    if (programSizeAbove(m, PREFILTER_MAX_PROGRAM)) {
      undecided.push(m);
      continue;
    }
    const group = flagGroup(m.source, m.flags);
    groups.set(group, [...(groups.get(group) ?? []), m]);
  }
  // A set is built the first time a text needs it: when every text lacks its members' literals,
  // it never is. One that cannot be built decides none of its members, from then on.
  const staticUndecided = new Set<Matcher>(undecided);
  const sets = [...groups.values()].map((members) => ({ members, set: undefined as RE2Set | null | undefined }));
  const built = (g: (typeof sets)[number]): RE2Set | null => {
    if (g.set === undefined) {
      try {
        const { RE2Set } = re2js();
        const first = g.members[0]!;
        const set = new RE2Set(RE2Set.UNANCHORED, re2Bits(first.source, first.flags));
        for (const m of g.members) set.add(m.source);
        set.compile();
        g.set = set;
      } catch {
        g.set = null;
        for (const m of g.members) staticUndecided.add(m);
      }
    }
    return g.set;
  };
  const screen = literalScreen(matchers);
  // A set whose members all have required literals is skipped outright when a text has none of its literals.
  const screened = sets.map(({ members }) => screen !== null && members.every((m) => screen.screens(m)));
  const none: ReadonlySet<Matcher> = new Set<Matcher>();
  const nothing = { occurring: none, undecided: none };
  const decide = (text: string): { occurring: ReadonlySet<Matcher>; undecided: ReadonlySet<Matcher> } => {
    const found = screen === null ? -1 : screen.scan(text);
    const absent = screen === null ? null : screen.absent;
    let occurring: Set<Matcher> | null = null;
    let unsure: Set<Matcher> | null = null;
    for (const [g, group] of sets.entries()) {
      const { members } = group;
      // Every member ruled out by its literals: the set has nothing to tell.
      if (absent !== null && ((found === 0 && screened[g]) || members.every(absent))) continue;
      const set = built(group);
      if (set === null) {
        unsure ??= new Set(staticUndecided);
        for (const m of members) unsure.add(m);
        continue;
      }
      let ids: number[] | null = null;
      try {
        ids = set.match(text);
      } catch {
        ids = null;
      }
      if (ids === null) {
        unsure ??= new Set(staticUndecided);
        for (const m of members) unsure.add(m);
      } else for (const id of ids) (occurring ??= new Set()).add(members[id]!);
    }
    let left: ReadonlySet<Matcher> = unsure ?? staticUndecided;
    if (absent !== null) {
      // A matcher whose literals are absent does not occur: known for sure, whatever else said so.
      if (occurring !== null) for (const m of occurring) if (absent(m)) occurring.delete(m);
      if ([...left].some(absent)) left = new Set([...left].filter((m) => !absent(m)));
    }
    if ((occurring === null || occurring.size === 0) && left.size === 0) return nothing;
    return { occurring: occurring ?? none, undecided: left.size === 0 ? none : left };
  };
  return {
    decide,
    matching(text) {
      const { occurring, undecided: unknown } = decide(text);
      return new Set([...occurring, ...unknown]);
    },
  };
}

/**
 * The literal screen over matchers (src/match/literals.ts): `scan(text)` returns how many literals
 * occur in the text; until the next scan, `absent(m)` is true for a matcher whose required
 * literals the text lacks. `screens(m)`: the matcher has required literals. Null when none has.
 */
function literalScreen(
  matchers: readonly Matcher[],
): { scan(text: string): number; absent(m: Matcher): boolean; screens(m: Matcher): boolean } | null {
  const table = new LiteralTable();
  const trees = new Map<Matcher, LiteralTree>();
  for (const m of matchers) {
    if (trees.has(m)) continue;
    const tree = m.plain !== undefined ? allOf(m.plain.literals, table) : requiredLiterals(m.re2, table);
    if (tree !== null) trees.set(m, tree);
  }
  const scanner = literalScanner(table.literals);
  if (scanner === null) return null;
  return {
    scan: (text) => scanner.scan(text),
    absent(m) {
      const tree = trees.get(m);
      return tree !== undefined && !possible(tree, scanner.present, scanner.stamp);
    },
    screens: (m) => trees.has(m),
  };
}
