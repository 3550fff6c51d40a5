/**
 * Plain patterns (src/match/plain-pattern.ts) are judged without compiling them until a text
 * holds their literals, so the facts read from their text must be exactly true of re2js: it
 * accepts every plain pattern, every match contains every literal, and the program never
 * exceeds the bound. Property tests over generated plain patterns and texts (fast-check prints
 * the seed and the shrunk case of a failure), plus the gate's judgment with and without them.
 */
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it, vi } from 'vitest';
import { runGate, type CheckedFile } from '../../hooks/gate.js';
import { compileDetector } from '../../src/match/detector.js';
import { re2js } from '../../src/match/re2.js';
import { plainPattern } from '../../src/match/plain-pattern.js';
import type { ConstraintIndex } from '../../src/types.js';
import { constraint } from '../hooks/setup.js';

// Letters, a non-ASCII letter, an astral character (a surrogate pair), punctuation that needs
// escaping and some that does not, a tab and a line end.
const CHARS = ['a', 'b', 'c', 'A', 'é', '😀', '_', '-', '=', ' ', '\t', '\n', 'x'];
const ESCAPED = ['\\(', '\\)', '\\.', '\\*', '\\+', '\\?', '\\[', '\\{', '\\|', '\\\\', '\\$', '\\^', '\\/', '\\-', '\\#'];
const OTHER = ['.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S'];
const ASSERTIONS = ['\\b', '\\B', '^', '$'];

/** A generated plain pattern: atoms, some quantified, and anchors. */
const plainArb: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constantFrom(...CHARS, ...ESCAPED, ...OTHER), fc.constantFrom('', '', '', '*', '+', '?')).map(([a, q]) => `${a}${q}`),
      fc.constantFrom(...ASSERTIONS),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const flagsArb = fc.constantFrom('', 's', 'm', 'ms', 'u');

/** A character each class-like atom matches (in every flag set), for texts the pattern matches. */
const SAMPLE: Record<string, string> = { '.': 'z', '\\d': '7', '\\D': '-', '\\w': 'q', '\\W': '-', '\\s': ' ', '\\S': 'y' };

/**
 * Text that often holds a match: the pattern's atoms spelt out, each quantified one 0–3 times
 * (as its quantifier allows), between random text; or random text alone.
 */
const textArb = (pattern: string): fc.Arbitrary<string> => {
  const atoms = [...pattern.matchAll(/(\\.|[^\\*+?])([*+?]?)/gu)];
  const noise = fc.array(fc.constantFrom(...CHARS, '(', '.', '1', 'ab'), { maxLength: 8 }).map((cs) => cs.join(''));
  return fc
    .tuple(noise, fc.boolean(), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: atoms.length, maxLength: atoms.length }), noise)
    .map(([before, near, counts, after]) => {
      if (!near) return `${before}${after}`;
      const spelt = atoms.map(([, atom, q], i) => {
        if (atom === '^' || atom === '$' || atom === '\\b' || atom === '\\B') return '';
        const one = SAMPLE[atom!] ?? atom!.replace(/^\\/, '');
        const n = q === '' ? 1 : q === '+' ? Math.max(1, counts[i]!) : q === '?' ? Math.min(1, counts[i]!) : counts[i]!;
        return one.repeat(n);
      });
      return `${before}${spelt.join('')}${after}`;
    });
};

// Cheap (a few hundred ms), and a rare shape (a repeated character before another) needs many runs to come up.
const RUNS = { numRuns: 3000 };

const re2Flags = (flags: string): number => (flags.includes('m') ? RE2JS.MULTILINE : 0) | (flags.includes('s') ? RE2JS.DOTALL : 0);

describe('plain patterns', () => {
  it('reads the literals every match holds', () => {
    expect(plainPattern('\\bforbidden_call_0\\(', '')?.literals).toEqual(['forbidden_call_0(']);
    expect(plainPattern('console\\.log\\(', '')?.literals).toEqual(['console.log(']);
    expect(plainPattern('ab+c', '')?.literals).toEqual(['ab', 'c']);
    expect(plainPattern('ab?c', '')?.literals).toEqual(['a', 'c']);
    expect(plainPattern('ab*c', '')?.literals).toEqual(['a', 'c']);
    expect(plainPattern('\\d+px', '')?.literals).toEqual(['px']);
    expect(plainPattern('^TODO:\\s*fix$', 'm')?.literals).toEqual(['TODO:', 'fix']);
    expect(plainPattern('a😀+b', '')?.literals).toEqual(['a😀', 'b']);
  });

  it('is null for anything it cannot read exactly, or that requires no literal', () => {
    for (const p of [
      'a(b)',
      '(?:ab)',
      'foo|bar',
      '[ab]c',
      'x{2}',
      '\\x41',
      '\\n',
      '\\ a',
      'a**',
      '^*',
      '*a',
      '\\',
      '\\1',
      '\\pL',
      '.*',
      '\\d+',
      'ab\ud800',
    ]) {
      expect(plainPattern(p, ''), p).toBeNull();
    }
    // Case folding: a literal is then a set of spellings.
    expect(plainPattern('abc', 'i')).toBeNull();
    expect(plainPattern('abc', 'si')).toBeNull();
  });

  it('is a pattern re2js accepts, whose program stays within the bound', () => {
    fc.assert(
      fc.property(plainArb, flagsArb, (pattern, flags) => {
        const plain = plainPattern(pattern, flags);
        if (plain === null) return;
        const re2 = RE2JS.compile(pattern, re2Flags(flags));
        expect(re2.programSize()).toBeLessThanOrEqual(plain.programSizeBound);
      }),
      RUNS,
    );
  });

  it('has literals that every re2js match contains', () => {
    fc.assert(
      fc.property(
        plainArb.chain((p) => fc.tuple(fc.constant(p), flagsArb, textArb(p))),
        ([pattern, flags, text]) => {
          const plain = plainPattern(pattern, flags);
          if (plain === null) return;
          const m = RE2JS.compile(pattern, re2Flags(flags)).matcher(text);
          while (m.find()) for (const literal of plain.literals) expect(m.group()).toContain(literal);
          return true;
        },
      ),
      RUNS,
    );
  });

  it('compiles only when a text holds its literals, and judges exactly as a compiled pattern', async () => {
    // The gate's own re2js (src/match/re2.ts), not this file's import of it.
    const compile = vi.spyOn(re2js().RE2JS, 'compile');
    const ids = Array.from({ length: 20 }, (_, i) => `c-${i}`);
    try {
      const indexOf = (pattern: (i: number) => string): ConstraintIndex =>
        ({
          schema_version: 1,
          constraints: ids.map((id, i) => constraint(id, { pattern: pattern(i), globs: ['**/*.ts'] })),
        }) as ConstraintIndex;
      const plainIndex = (): ConstraintIndex => indexOf((i) => `\\bforbidden_${i}\\(`);
      // The same patterns, written so they are not plain (a group): compiled up front.
      const groupedIndex = (): ConstraintIndex => indexOf((i) => `\\b(?:forbidden_${i})\\(`);
      const clean: CheckedFile[] = Array.from({ length: 30 }, (_, i) => ({
        path: `src/f${i}.ts`,
        text: `export const f${i} = () => ${i};\n`,
      }));
      const options = { skip: new Set<string>(), budgetMs: 250, bypass: null, indexFile: '.agents/constraints/index.json', indexText: '' };

      compile.mockClear();
      expect(await runGate(plainIndex(), clean, options)).toEqual([]);
      expect(compile).not.toHaveBeenCalled();

      const dirty: CheckedFile[] = [...clean, { path: 'src/bad.ts', text: 'x();\nforbidden_7(1);\nforbidden_70(2);\n' }];
      compile.mockClear();
      const plainVerdict = await runGate(plainIndex(), dirty, options);
      // Only the pattern whose literal the text holds (forbidden_7, and forbidden_70 is not one of them) compiled.
      expect(compile.mock.calls.map((c) => c[0])).toEqual(['\\bforbidden_7\\(']);
      const groupedVerdict = await runGate(groupedIndex(), dirty, options);
      expect(plainVerdict.map((d) => [d.file, d.line, d.ruleId])).toEqual([['src/bad.ts', 2, 'constraint/c-7']]);
      expect(plainVerdict.map((d) => [d.file, d.line, d.column, d.ruleId])).toEqual(
        groupedVerdict.map((d) => [d.file, d.line, d.column, d.ruleId]),
      );
    } finally {
      compile.mockRestore();
    }
  });

  it('refuses a plain pattern for the same reasons as any other', () => {
    const r = compileDetector({ kind: 'regex', pattern: 'a\\-b', flags: 'u' });
    // JavaScript's `u` mode refuses `\-` outside a class: the vetting runs for plain patterns too.
    expect(r.ok).toBe(false);
  });
});
