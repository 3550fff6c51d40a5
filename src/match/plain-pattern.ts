/**
 * What a plain pattern tells without compiling it (docs/hooks.md "Speed"). Compiling a pattern
 * with re2js (parse, simplify, program, one-pass analysis) costs a fresh process about a
 * millisecond, and a commit checks every pattern of the index, most against files that do not
 * even hold its literal text. Most constraint patterns are plain — a literal with escapes, `.`,
 * `\d`/`\w`/`\s` classes, anchors and simple quantifiers — and for those three facts are plain
 * from one scan: re2js accepts them, every match contains certain literal strings, and their
 * program has at most so many instructions. The matcher then compiles only when a text holds
 * those literals. Anything else (a group, a class, a brace, alternation, another escape, the
 * `i` flag) is not plain: it compiles up front, as before. Pure.
 */

/** The facts of a plain pattern. */
export interface PlainPattern {
  /** Strings that every match contains (each maximal run of characters the match must hold). */
  readonly literals: readonly string[];
  /** A number re2js's program size never exceeds for this pattern (docs/hooks.md "Time budget"). */
  readonly programSizeBound: number;
}

/** Escapes of a letter that plain patterns may use: classes (a character) and word boundaries (none). */
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S']);
const ASSERTION_ESCAPES = new Set(['b', 'B']);
/** Characters with a meaning of their own; in a plain pattern each must be escaped or be one of `.^$*+?`. */
const SPECIAL = new Set(['\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$']);

type Atom =
  | { readonly kind: 'char'; readonly text: string }
  | { readonly kind: 'class' }
  | { readonly kind: 'assertion' }
  | { readonly kind: 'quantifier'; readonly op: '*' | '+' | '?' };

/** ASCII punctuation: re2js reads `\` before any of these as the character itself. */
function isEscapablePunctuation(c: string): boolean {
  const code = c.charCodeAt(0);
  return c.length === 1 && code >= 0x21 && code <= 0x7e && !/[0-9A-Za-z]/.test(c);
}

/** The pattern's atoms in order, or null when it is not plain. */
function atomsOf(pattern: string): Atom[] | null {
  const atoms: Atom[] = [];
  // By code point, as re2js reads a pattern; a lone surrogate is not plain.
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i]!;
    if (c.length === 1 && c >= '\ud800' && c <= '\udfff') return null;
    if (c === '\\') {
      const next = chars[(i += 1)];
      if (next === undefined) return null;
      if (CLASS_ESCAPES.has(next)) atoms.push({ kind: 'class' });
      else if (ASSERTION_ESCAPES.has(next)) atoms.push({ kind: 'assertion' });
      else if (isEscapablePunctuation(next)) atoms.push({ kind: 'char', text: next });
      else return null;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      const before = atoms[atoms.length - 1];
      // A quantifier needs a character or a class before it (not an anchor, nothing, or another quantifier).
      if (before === undefined || before.kind === 'assertion' || before.kind === 'quantifier') return null;
      atoms.push({ kind: 'quantifier', op: c });
      continue;
    }
    if (c === '.') atoms.push({ kind: 'class' });
    else if (c === '^' || c === '$') atoms.push({ kind: 'assertion' });
    else if (SPECIAL.has(c)) return null;
    else atoms.push({ kind: 'char', text: c });
  }
  return atoms;
}

/** At most this many quantifiers, as safe-regex2's repetition limit (src/match/safe-pattern.ts). */
const MAX_QUANTIFIERS = 25;

/**
 * The facts of `pattern` under `flags` (a subset of `imsu`, inline flags already split off), or
 * null when it is not plain or no literal is required (then nothing is gained by not compiling).
 */
export function plainPattern(pattern: string, flags: string): PlainPattern | null {
  // Case folding makes every literal a set of spellings: no plain literal is required.
  if (flags.includes('i') || pattern === '') return null;
  const atoms = atomsOf(pattern);
  if (atoms === null || atoms.filter((a) => a.kind === 'quantifier').length > MAX_QUANTIFIERS) return null;
  const literals: string[] = [];
  let run = '';
  const close = (): void => {
    if (run !== '') literals.push(run);
    run = '';
  };
  for (let i = 0; i < atoms.length; i += 1) {
    const atom = atoms[i]!;
    const next = atoms[i + 1];
    const op = next?.kind === 'quantifier' ? next.op : null;
    if (atom.kind === 'quantifier') continue;
    if (atom.kind !== 'char') {
      close();
      continue;
    }
    if (op === '*' || op === '?') {
      // Optional: the match may lack it, so the run ends before it.
      close();
      continue;
    }
    run += atom.text;
    // `x+` holds at least one x; what follows may come after further x's, so the run ends with it.
    if (op === '+') close();
  }
  close();
  if (literals.length === 0) return null;
  // re2js compiles each atom and each quantifier to one instruction, plus a frame of two (the
  // match, the fail); two more to spare. test/match/plain-pattern.test.ts checks it against re2js.
  return { literals, programSizeBound: atoms.length + 4 };
}
