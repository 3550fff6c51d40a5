/**
 * The regex detector kind (src/match/kind.ts): `kind: "regex"` (and an earlier release's
 * `content_pattern`), run on re2js.
 *
 * Safety (docs/stack-pitfalls.md#7): patterns run on re2js, a linear-time engine, so no pattern can hang
 * a commit — V8's backtracking engine cannot be interrupted, and patterns that safe-regex2
 * accepts still blow up there (`(a|aa)+$` with the `i` flag, `\w+x` on a long line). The price
 * is RE2 syntax: lookahead and backreferences are refused with a diagnostic (captureless
 * lookbehind runs in linear time too). Patterns with
 * catastrophic-backtracking shape (nested quantifiers, via safe-regex2) are refused too, as the
 * compiler contract asks, so a constraint stays portable to backtracking tools such as
 * `git grep -P`. Each evaluation also runs under a time budget (a huge file), whose overrun is an
 * evaluation error; its worst case (text length × program size) decides whether it runs inline.
 */
import type { RE2JS } from 're2js';
import { re2js } from './re2.js';
import { isSafePattern } from './safe-pattern.js';
import { plainPattern, type PlainPattern } from './plain-pattern.js';
import { canonicalMode } from '../constraints/shape.js';
import { LineTable } from '../text-position.js';
import { allOf, requiredLiterals, type LiteralTable, type LiteralTree } from './literals.js';
import { tokenize } from './regex-syntax.js';
import type { CompileResult, DetectorKind, DetectorSpec, EvaluateOptions, Evaluation, Hit, Matcher } from './kind.js';

/** A compiled regex detector: the interface, and the parts the regex-only speed-ups read (RE2Set, window search). */
export interface RegexMatcher extends Matcher {
  readonly kind: 'regex' | 'content_pattern';
  /** The compiled pattern; for a plain pattern compiled on first use (src/match/plain-pattern.ts). */
  readonly re2: RE2JS;
  /** What is known without compiling, for a plain pattern: its required literals and a program-size bound. */
  readonly plain?: PlainPattern;
  /** The pattern without its leading inline flag group (the flags are in `flags`). */
  readonly source: string;
  readonly flags: string;
  readonly exclude?: RE2JS;
  /** The exclude pattern as written. */
  readonly excludeSource?: string;
}

/** The regex parts of a matcher, or null for another kind. */
export function regexParts(m: Matcher): RegexMatcher | null {
  return m.kind === 'regex' || m.kind === 'content_pattern' ? (m as RegexMatcher) : null;
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
export function re2Bits(pattern: string, flags: string): number {
  return re2Flags(flags) | (hasLookbehind(pattern) ? re2js().RE2JS.LOOKBEHINDS : 0);
}

const hasLookbehind = (pattern: string): boolean => /\(\?<[=!]/.test(pattern);

/** Which matchers share an RE2Set: the same re2js flag bits (re2Bits), told without loading re2js. */
export function flagGroup(m: RegexMatcher): string {
  return ['i', 'm', 's'].filter((f) => m.flags.includes(f)).join('') + (hasLookbehind(m.source) ? '<' : '');
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

/**
 * False when the pattern uses what re2js runs but Go's RE2 (upstream's gate) refuses: lookbehind,
 * re2js's one extension (test/match/re2-syntax.test.ts). A pattern neither accepts fails closed in
 * both. Told from the pattern's tokens, without loading re2js. Pure.
 */
export function isPortablePattern(pattern: string): boolean {
  const tokens = tokenize(pattern);
  if (tokens === null) return !/\(\?<[=!]/.test(pattern);
  return !tokens.some((t) => t.t === 'open' && (t.text === '(?<=' || t.text === '(?<!'));
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
 * Worst-case re2js cost per (character × program instruction), in nanoseconds: ~80 ns measured
 * for a 1,003-instruction program on this 2-core machine under load, rounded up.
 */
const WORST_NS_PER_UNIT = 100;

/** True when an evaluation's worst case (text length × program size) fits its budget, so it may run inline. */
function fitsInline(m: RegexMatcher, textLength: number, budgetMs: number): boolean {
  const fits = (programSize: number): boolean => textLength * programSize * WORST_NS_PER_UNIT <= budgetMs * 1e6;
  // A plain pattern's bound that fits says so without compiling it (the program is never larger).
  if (m.plain !== undefined && fits(m.plain.programSizeBound)) return true;
  return fits(m.re2.programSize());
}

/**
 * Compiles a regex (or content_pattern) detector. Modes (upstream's and this project's spellings,
 * src/constraints/shape.ts): `match`, `present`, `forbid`, `must_not_contain` or none — a match is
 * a violation; `absent`, `require`, `required`, `must_contain` — a file without a match is one
 * violation. Flags may be inline (`(?i)…`).
 */
export function compileRegex(spec: DetectorSpec): CompileResult {
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
  const kind: RegexMatcher['kind'] = spec.kind === 'content_pattern' ? 'content_pattern' : 'regex';
  const re2 = compiled !== null ? () => compiled.re2 : deferredRe2(pattern, flags);
  const matcher: RegexMatcher = {
    kind,
    mode,
    spec,
    source: pattern,
    flags,
    ...(exclude ? { exclude, excludeSource: spec.exclude! } : {}),
    ...(plain !== null ? { plain } : {}),
    get re2() {
      return re2();
    },
    requiredLiterals(table: LiteralTable): LiteralTree | null {
      return this.plain !== undefined ? allOf(this.plain.literals, table) : requiredLiterals(this.re2, table);
    },
    evaluate(text: string, options?: EvaluateOptions): Evaluation {
      return evaluateRegex(this, text, options);
    },
    fitsInline(textLength: number, budgetMs: number): boolean {
      return fitsInline(this, textLength, budgetMs);
    },
  };
  return { ok: true, matcher };
}

/**
 * Evaluates a regex matcher over a file's text and returns violations as hits. For `match`,
 * every match is a hit; for `must_contain`, a file without a match is one hit at 1:1 (the
 * violation is the absence).
 */
function evaluateRegex(matcher: RegexMatcher, text: string, options: EvaluateOptions = {}): Evaluation {
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

/** The built-in regex kind. */
export const regexKind: DetectorKind = { names: ['regex', 'content_pattern'], compile: compileRegex };
