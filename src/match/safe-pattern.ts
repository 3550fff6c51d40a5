/**
 * safe-regex2's verdict ("no nested quantifier, at most 25 repetitions"), without loading it for
 * the common pattern. safe-regex2 and its parser are 12 module files, and the gate checks every
 * pattern of the index on every commit (docs/hooks.md "Speed"); most constraint patterns are a
 * literal with a few escapes and simple quantifiers, whose verdict is plain from one linear scan.
 * Anything else — a group, a class, a brace, a quantifier on a quantifier — goes to safe-regex2
 * itself, loaded on first use, so the verdict is always exactly safe-regex2's.
 */
import { createRequire } from 'node:module';

const LIMIT = 25; // safe-regex2's default repetition limit

let safeRegex: ((pattern: string) => boolean) | null = null;

/** True when safe-regex2 calls `pattern` safe. */
export function isSafePattern(pattern: string): boolean {
  if (quickSafeVerdict(pattern) === true) return true;
  safeRegex ??= createRequire(import.meta.url)('safe-regex2') as (pattern: string) => boolean;
  return safeRegex(pattern);
}

/**
 * `true` when the pattern has no group, class or brace, every quantifier (`*`, `+`, `?`) follows
 * a plain character or an escape, and there are at most 25 of them: safe-regex2's parse of it
 * then has star height ≤ 1 and ≤ 25 repetitions, which it calls safe. `null`: ask safe-regex2. Pure.
 */
export function quickSafeVerdict(pattern: string): true | null {
  let repetitions = 0;
  let quantifiable = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return null;
      i += 1;
      // An assertion cannot be repeated; leave any such oddity to safe-regex2.
      quantifiable = next !== 'b' && next !== 'B';
      continue;
    }
    if (c === '(' || c === ')' || c === '[' || c === ']' || c === '{' || c === '}') return null;
    if (c === '*' || c === '+' || c === '?') {
      if (!quantifiable) return null;
      repetitions += 1;
      quantifiable = false;
      continue;
    }
    quantifiable = c !== '|' && c !== '^' && c !== '$';
  }
  return repetitions <= LIMIT ? true : null;
}
