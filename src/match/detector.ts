/**
 * Detector evaluation over whole-file text — the one matching engine shared by the compiler's
 * replay qualification, the commit gate and history measurement, so all three agree.
 *
 * Safety (pitfalls.md #7): a pattern with catastrophic-backtracking shape (nested quantifiers,
 * star height > 1, via safe-regex2) is refused at compile time and is an evaluation error at
 * gate time; the launchers also enable V8's linear-time fallback on excessive backtracking, and
 * each evaluation runs under a time budget whose overrun is an evaluation error.
 */
import safeRegex from 'safe-regex2';

export interface DetectorSpec {
  readonly kind: string;
  readonly mode?: string | undefined;
  readonly pattern?: string | undefined;
  readonly flags?: string | undefined;
}

export interface Matcher {
  readonly kind: 'regex' | 'content_pattern';
  readonly mode: 'match' | 'must_contain' | 'must_not_contain';
  readonly regex: RegExp;
  readonly source: string;
}

export type CompileResult = { readonly ok: true; readonly matcher: Matcher } | { readonly ok: false; readonly problem: string };

const ALLOWED_FLAGS = /^[imsu]*$/;

/** Why a pattern may not be used, or null. Pure. */
export function patternProblem(pattern: string, flags = ''): string | null {
  if (!ALLOWED_FLAGS.test(flags)) return `flags "${flags}" are not allowed (use a subset of i, m, s, u)`;
  try {
    new RegExp(pattern, `${flags}g`);
  } catch (error) {
    return `pattern does not compile: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (!safeRegex(pattern)) {
    return 'pattern is unsafe: nested quantifiers can backtrack catastrophically (e.g. "(a+)+"); rewrite it without a quantified group that itself contains a quantifier';
  }
  return null;
}

/** Compiles a detector (regex or content_pattern). Other kinds are advisory-only and refused here. */
export function compileDetector(spec: DetectorSpec): CompileResult {
  if (spec.kind !== 'regex' && spec.kind !== 'content_pattern') {
    return { ok: false, problem: `detector kind "${spec.kind}" is not enforceable (advisory only)` };
  }
  if (typeof spec.pattern !== 'string' || spec.pattern === '') return { ok: false, problem: 'detector has no pattern' };
  const flags = spec.flags ?? '';
  const problem = patternProblem(spec.pattern, flags);
  if (problem) return { ok: false, problem };
  let mode: Matcher['mode'] = 'match';
  if (spec.kind === 'content_pattern') {
    if (spec.mode !== 'must_contain' && spec.mode !== 'must_not_contain') {
      return { ok: false, problem: 'content_pattern detector needs mode must_contain or must_not_contain' };
    }
    mode = spec.mode;
  }
  return { ok: true, matcher: { kind: spec.kind, mode, regex: new RegExp(spec.pattern, `${flags}g`), source: spec.pattern } };
}

export interface Hit {
  /** 1-based line of the match start. */
  readonly line: number;
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

/** 1-based line/column of an offset, using a precomputed sorted list of line starts. */
function position(lineStarts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - lineStarts[lo]! + 1 };
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * Evaluates a matcher over a file's text and returns violations as hits. For `match` and
 * `must_not_contain`, every match is a hit; for `must_contain`, a file without a match is one
 * hit at 1:1 (the violation is the absence).
 */
export function evaluate(matcher: Matcher, text: string, options: EvaluateOptions = {}): Evaluation {
  const budgetMs = options.budgetMs ?? 250;
  const maxHits = options.maxHits ?? 1000;
  const regex = new RegExp(matcher.regex.source, matcher.regex.flags);
  const started = performance.now();
  if (matcher.mode === 'must_contain') {
    const found = regex.test(text);
    if (performance.now() - started > budgetMs) return { hits: [], error: `matching took longer than the ${budgetMs} ms budget` };
    return { hits: found ? [] : [{ line: 1, column: 1, match: '' }] };
  }
  const hits: Hit[] = [];
  let starts: number[] | null = null;
  for (;;) {
    const m = regex.exec(text);
    if (performance.now() - started > budgetMs) return { hits, error: `matching took longer than the ${budgetMs} ms budget` };
    if (m === null) break;
    if (m[0] === '') regex.lastIndex += 1;
    starts ??= lineStartsOf(text);
    const { line, column } = position(starts, m.index);
    hits.push({ line, column, match: m[0].slice(0, 200) });
    if (hits.length >= maxHits) break;
  }
  return { hits };
}

/** True when the matcher reports at least one violation in the text. */
export function violates(matcher: Matcher, text: string, options: EvaluateOptions = {}): boolean {
  const r = evaluate(matcher, text, { ...options, maxHits: 1 });
  return r.hits.length > 0;
}
