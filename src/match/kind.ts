/**
 * One detector interface (ARCHITECTURE.md "Matching", docs/hooks.md "Detector kinds"). A detector
 * kind (`detector.kind` of an index entry: `regex`, and kinds such as `ast-grep` that live in the
 * extended index) offers, through this contract and nothing else:
 *
 * - `compile(spec)`: vets and compiles one detector. User content never throws: a pattern or rule
 *   that cannot be used is `{ ok: false, problem }` (the gate then fails closed, compile refuses it).
 * - on the compiled `Matcher`:
 *   - `requiredLiterals(table)`: literals every match contains (src/match/literals.ts trees), for
 *     the screen that rules a file out before anything is evaluated; null when none is known.
 *     The screen must be exact in one direction: a text lacking them has no match.
 *   - `evaluate(text, { budgetMs, maxHits })`: hits with 1-based start line, end line and column,
 *     or `error` when the evaluation did not finish (the gate's evaluation error). `mode`
 *     `must_contain` reports one hit at 1:1 when the text has no match.
 *   - `fitsInline(textLength, budgetMs)`: its own budget mechanism. True when the worst case of
 *     one evaluation of a text this long stays within the budget, so it runs inline; otherwise
 *     the bounded evaluator (src/match/bounded.ts) runs it in a worker thread, recompiled there
 *     from `spec`, and terminates the thread at the budget. A kind whose work cannot be stopped
 *     that way (native code) must say false only for what a worker can bound, or refuse texts
 *     above a size it can bound in `evaluate` (an evaluation error naming the limit).
 *   - `spec`: the detector as compiled, plain data (what a worker thread compiles again).
 *
 * Kinds are loaded lazily: `loadDetectorKinds(kinds)` imports each kind's module the first time
 * a caller needs it (the commit hook loads only the kinds its applicable constraints use), and
 * `compileDetector` (src/match/detector.ts) then compiles synchronously. The regex kind is built
 * in. A kind module is imported with `import()` (kept out of the hook bundle,
 * scripts/bundle-hook.mjs), exports its `DetectorKind`, and must not rely on module state of this
 * registry (the bundle and dist/ may hold two copies of it).
 */
import type { LiteralTable, LiteralTree } from './literals.js';

/** A detector as written in an index entry or an artifact (plain data). */
export interface DetectorSpec {
  readonly kind: string;
  readonly mode?: string | undefined;
  readonly pattern?: string | undefined;
  readonly flags?: string | undefined;
  /** A hit on a line that also matches this is not a violation (upstream's `detector.exclude`). */
  readonly exclude?: string | undefined;
  /**
   * What a `match` detector's text is (docs/compiler.md "Matching"): `line`, each line on its own
   * as upstream's gate reads it; `file`, the whole text (a multi-line pattern of the extended
   * index). Absent: decided by the kind from the pattern.
   */
  readonly span?: 'line' | 'file' | undefined;
  /** Structural kinds: the language parsed and the rule (extended index only). */
  readonly language?: string | undefined;
  readonly rule?: Readonly<Record<string, unknown>> | undefined;
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

/** A compiled detector of any kind. */
export interface Matcher {
  readonly kind: string;
  /** `match`: a match is a violation; `must_contain`: a file without a match is one (docs/hooks.md "Detector modes"). */
  readonly mode: 'match' | 'must_contain';
  /** The detector as compiled: a worker thread compiles it again from this. */
  readonly spec: DetectorSpec;
  /** The literal condition every match meets, or null when none is known. */
  requiredLiterals(table: LiteralTable): LiteralTree | null;
  /** Evaluates the detector over a file's text, checking the budget as it goes. */
  evaluate(text: string, options?: EvaluateOptions): Evaluation;
  /** True when one evaluation of a text this long fits the budget inline (else it runs in a worker stopped at the budget). */
  fitsInline(textLength: number, budgetMs: number): boolean;
}

export type CompileResult = { readonly ok: true; readonly matcher: Matcher } | { readonly ok: false; readonly problem: string };

/** One detector kind: how to vet and compile its detectors. */
export interface DetectorKind {
  /** The `detector.kind` values it implements. */
  readonly names: readonly string[];
  compile(spec: DetectorSpec): CompileResult;
}
