/**
 * The required-literal screen (src/match/literals.ts) must never change a verdict: a pattern it
 * rules out for a text is one re2js finds nothing in. Property tests over generated patterns and
 * texts (fast-check prints the seed and the shrunk case of a failure).
 */
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { runGate, type CheckedFile } from '../../hooks/gate.js';
import { buildPrefilter, compileDetector, evaluate } from '../../src/match/detector.js';
import type { RegexMatcher } from '../../src/match/regex.js';
import { LiteralScanner, LiteralTable, literalScanner, possible, requiredLiterals, type LiteralTree } from '../../src/match/literals.js';
import type { ConstraintIndex } from '../../src/types.js';
import { constraint, indexJson } from '../hooks/setup.js';

// Characters chosen to meet the edge cases: case pairs, the Kelvin sign and long s (which
// case-fold to k and s), a non-ASCII letter, an astral character (a surrogate pair), line ends.
const CHARS = ['a', 'b', 'c', 'A', 'B', 'k', 'K', '\u212a', 's', 'S', '\u017f', 'é', 'É', '😀', '_', '(', ' ', '\n', 'x'];
const escapeChar = (c: string): string => (c === '(' ? '\\(' : c === '\n' ? '\\n' : c);

/** A generated RE2 pattern (string), built from literals, classes, assertions, groups, alternation and quantifiers. */
const patternArb: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'p' },
    fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 4 }).map((cs) => cs.map(escapeChar).join('')),
    fc.constantFrom('[ab]', '[^a]', '[a-c]', '\\w', '\\d', '\\s', '.', '\\b', '^', '$', '[kK]', '\\x{212A}'),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `${a}${b}`),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(?:${a}|${b})`),
    tie('node').map((a) => `(${a})`),
    fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{1,2}', '{0,1}')).map(([a, q]) => `(?:${a})${q}`),
    tie('node').map((a) => `(?i:${a})`),
  ),
})).node;

const flagsArb = fc.constantFrom('', 'i', 's', 'm', 'is');
const textArb = fc
  .array(fc.oneof(fc.constantFrom(...CHARS), fc.constantFrom('ab', 'abc', 'kab', 'a😀', 'Ab(')), { maxLength: 40 })
  .map((parts) => parts.join(''));

/** Text that often holds what a pattern looks for: its characters with the syntax taken out, between random text. */
const textNear = (pattern: string, before: string, after: string, near: boolean): string =>
  near
    ? `${before}${pattern
        .replace(/\\n/g, '\n')
        .replace(/\\x\{212A\}/g, '\u212a')
        .replace(/[\\()?:*+|{}[\]^$.]|\[[^\]]*\]/g, '')}${after}`
    : before;

/** The matcher for a pattern, or null when the project refuses it (unsafe shape, bad syntax). */
function matcherOf(pattern: string, flags: string, mode?: string): RegexMatcher | null {
  const r = compileDetector({ kind: 'regex', pattern, flags, ...(mode ? { mode } : {}) });
  return r.ok ? (r.matcher as RegexMatcher) : null;
}

const RUNS = { numRuns: 300 };

describe('required literals (re2js prefilter tree)', () => {
  const tree = (pattern: string, flags = 0): LiteralTree | null => requiredLiterals(RE2JS.compile(pattern, flags), new LiteralTable());

  it('reads the literals every match needs', () => {
    expect(tree('\\bforbidden_call_1\\(')).toEqual({ kind: 'literal', id: 0 });
    const t = new LiteralTable();
    expect(requiredLiterals(RE2JS.compile('foo.*bar|baz'), t)).toEqual({
      kind: 'any',
      parts: [
        {
          kind: 'all',
          parts: [
            { kind: 'literal', id: 0 },
            { kind: 'literal', id: 1 },
          ],
        },
        { kind: 'literal', id: 2 },
      ],
    });
    expect(t.literals).toEqual(['foo', 'bar', 'baz']);
  });

  it('cuts a long literal, never between the halves of a surrogate pair', () => {
    const t = new LiteralTable();
    t.id(`${'a'.repeat(63)}😀tail`);
    t.id(`${'b'.repeat(62)}😀tail`);
    expect(t.literals).toEqual(['a'.repeat(63), `${'b'.repeat(62)}😀`]);
  });

  it('knows none for a case-folded pattern or one without literals', () => {
    expect(tree('(?i)eval\\(')).toBeNull();
    expect(tree('eval', RE2JS.CASE_INSENSITIVE)).toBeNull();
    expect(tree('[a-z]{1000}[0-9]')).toBeNull();
  });

  it('a pattern ruled out by its literals never matches the text (generated patterns × texts)', () => {
    fc.assert(
      fc.property(patternArb, flagsArb, textArb, textArb, fc.boolean(), (pattern, flags, before, after, near) => {
        const text = textNear(pattern, before, after, near);
        const m = matcherOf(pattern, flags);
        fc.pre(m !== null);
        const table = new LiteralTable();
        const t = requiredLiterals(m!.re2, table);
        fc.pre(t !== null);
        const scanner = new LiteralScanner(table.literals);
        scanner.scan(text);
        if (!possible(t!, scanner.present, scanner.stamp)) expect(m!.re2.matcher(text).find()).toBe(false);
      }),
      RUNS,
    );
  });
});

describe('LiteralScanner', () => {
  it('finds exactly the literals that occur, in one pass (generated literal sets × texts)', () => {
    const unit = fc.constantFrom('a', 'b', 'ab', 'aa', '😀', '\ud83d', 'é', '\n');
    const literal = fc.array(unit, { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.uniqueArray(literal, { minLength: 1, maxLength: 8 }), fc.array(unit, { maxLength: 30 }), (literals, parts) => {
        const text = parts.join('');
        const scanner = new LiteralScanner(literals);
        scanner.scan('unrelated text first, so the stamp moves on');
        const found = scanner.scan(text);
        expect(literals.filter((_, id) => scanner.present[id] === scanner.stamp)).toEqual(literals.filter((l) => text.includes(l)));
        expect(found).toBe(literals.filter((l) => text.includes(l)).length);
      }),
      RUNS,
    );
  });

  it('is not built when its table would be too large', () => {
    const many = Array.from({ length: 4000 }, (_, i) => String.fromCharCode(0x4e00 + i).repeat(64) + String(i));
    expect(literalScanner(many)).toBeNull();
    expect(literalScanner([])).toBeNull();
    expect(literalScanner(['eval('])).not.toBeNull();
  });
});

describe('the prefilter with the literal screen', () => {
  it('keeps every matcher whose pattern occurs (generated pattern sets × texts)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(patternArb, flagsArb), { minLength: 1, maxLength: 6 }), textArb, textArb, (specs, before, after) => {
        const text = textNear(specs.map(([p]) => p).join(''), before, after, true);
        const matchers = specs.map(([p, f]) => matcherOf(p, f)).filter((m): m is RegexMatcher => m !== null);
        fc.pre(matchers.length > 0);
        const { occurring, undecided } = buildPrefilter(matchers).decide(text);
        for (const m of matchers) {
          const found = m.re2.matcher(text).find();
          if (!undecided.has(m)) expect(occurring.has(m)).toBe(found);
        }
      }),
      RUNS,
    );
  });

  it('the gate reports exactly what evaluating every pattern on every file reports', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(patternArb, flagsArb, fc.boolean()), { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(textArb, textArb, fc.boolean()), { minLength: 1, maxLength: 6 }),
        async (specs, parts) => {
          const texts = parts.map(([before, after, near], i) => textNear(specs[i % specs.length]![0], before, after, near));
          const usable = specs.filter(([p, f]) => matcherOf(p, f) !== null);
          fc.pre(usable.length > 0);
          const entries = usable.map(([pattern, flags, required], i) =>
            constraint(`c${i}`, {
              globs: ['**'],
              detector: { kind: 'regex', pattern: flags ? `(?${flags})${pattern}` : pattern, ...(required ? { mode: 'required' } : {}) },
            }),
          );
          const index = { schema_version: 1, constraints: entries } as ConstraintIndex;
          const files: CheckedFile[] = texts.map((text, i) => ({ path: `f${i}.txt`, text }));
          const got = await runGate(index, files, {
            budgetMs: 60_000,
            skip: new Set(),
            bypass: null,
            indexFile: '.agents/constraints/index.json',
            indexText: indexJson(...entries),
          });
          const expected: string[] = [];
          for (const [i, [pattern, flags, required]] of usable.entries()) {
            const m = matcherOf(pattern, flags, required ? 'required' : undefined)!;
            for (const f of files)
              for (const h of evaluate(m, f.text, { budgetMs: 60_000 }).hits) expected.push(`c${i} ${f.path}:${h.line}:${h.column}`);
          }
          const key = (s: string[]) => [...s].sort();
          expect(key(got.map((d) => `${d.ruleId.replace('constraint/', '')} ${d.file}:${d.line}:${d.column ?? 1}`))).toEqual(key(expected));
        },
      ),
      { numRuns: 150 },
    );
  });
});
