/**
 * Window search (src/match/window-search.ts) must find exactly what re2js's sequential search
 * over the whole text finds: the same matches in the same order, hence the same hits. Property
 * tests over generated patterns and texts (fast-check prints the seed and the shrunk case of a
 * failure), plus the plans of a few patterns read by hand.
 */
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { compileDetector, evaluate } from '../../src/match/detector.js';
import type { RegexMatcher } from '../../src/match/regex.js';
import { LineTable } from '../../src/text-position.js';
import { evaluateInWindows, findMatches, LineWalk, matchWindows, searchPlan } from '../../src/match/window-search.js';

// Edge cases: case pairs, the Kelvin sign and long s (case-fold partners of k and s), a
// non-ASCII letter, an astral character (a surrogate pair) and lone halves of one, word and
// non-word characters, line feeds and carriage returns.
const CHARS = ['a', 'b', 'c', 'A', 'k', 'K', '\u212a', 's', '\u017f', 'é', '😀', '\ud83d', '\ude00', '_', '(', ' ', '\n', '\r', 'x', '1'];
const escapeChar = (c: string): string =>
  c === '(' ? '\\(' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\ud83d' || c === '\ude00' ? '' : c;

/** A generated RE2 pattern built from literals, classes, assertions, groups, alternation and quantifiers. */
const patternArb: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'p' },
    fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 4 }).map((cs) => cs.map(escapeChar).join('') || 'a'),
    fc.constantFrom(
      '[ab]',
      '[^a]',
      '[a-c]',
      '\\w',
      '\\W',
      '\\d',
      '\\D',
      '\\s',
      '\\S',
      '.',
      '\\b',
      '\\B',
      '^',
      '$',
      '\\A',
      '\\z',
      '[kK]',
      '\\x{212A}',
    ),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `${a}${b}`),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(?:${a}|${b})`),
    tie('node').map((a) => `(${a})`),
    fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{1,2}', '{0,1}', '*?', '+?')).map(([a, q]) => `(?:${a})${q}`),
    tie('node').map((a) => `(?i:${a})`),
    tie('node').map((a) => `(?s:${a})`),
    tie('node').map((a) => `(?m:${a})`),
  ),
})).node;

const flagsArb = fc.constantFrom('', 's', 'm', 'ms', 'i');
const textArb = fc
  .array(fc.oneof(fc.constantFrom(...CHARS), fc.constantFrom('ab', 'abc', 'kab', 'a😀', 'Ab(', 'a\nb', ' var ', 'var\n')), {
    maxLength: 60,
  })
  .map((parts) => parts.join(''));

/**
 * Text that often holds what a pattern looks for: its characters with the syntax taken out,
 * repeated between random text, each copy with `around` (often a line end) on both sides.
 */
const textNear = (pattern: string, parts: readonly string[], around = ''): string => {
  const bare = pattern
    .replace(/\\n/g, '\n')
    .replace(/\\r/g, '\r')
    .replace(/\\x\{212A\}/g, '\u212a')
    .replace(/\(\?[ims]*:/g, '')
    .replace(/[\\()?:*+|{}[\]^$.]|\[[^\]]*\]/g, '');
  return parts.join(`${around}${bare}${around}`);
};
const aroundArb = fc.constantFrom('', '', '\n', '\r\n', ' ', '\n\n');

function matcherOf(pattern: string, flags: string, mode?: string, exclude?: string): RegexMatcher | null {
  const r = compileDetector({ kind: 'regex', pattern, flags, ...(mode ? { mode } : {}), ...(exclude ? { exclude } : {}) });
  return r.ok ? (r.matcher as RegexMatcher) : null;
}

/** Every match of re2js's sequential search over the whole text. */
function wholeTextMatches(re2: RE2JS, text: string): [number, number, string][] {
  const out: [number, number, string][] = [];
  const m = re2.matcher(text);
  while (m.find()) out.push([m.start(), m.end(), m.group() ?? '']);
  return out;
}

function windowMatches(re2: RE2JS, text: string, mergeGap?: number): [number, number, string][] | null {
  const plan = searchPlan(re2);
  if (plan === null) return null;
  const out: [number, number, string][] = [];
  findMatches(
    re2,
    plan,
    text,
    (s, e, matched) => {
      out.push([s, e, matched()]);
      return true;
    },
    mergeGap,
  );
  return out;
}

const RUNS = { numRuns: 1500 };
const BUDGET = { budgetMs: 60_000, maxHits: Number.MAX_SAFE_INTEGER };

describe('window search plans', () => {
  const plan = (pattern: string, flags = 0) => searchPlan(RE2JS.compile(pattern, flags));

  it('bounds a fixed-length pattern, even one whose matches may hold a line feed', () => {
    expect(plan('\\bvar\\s')).toEqual({ literals: ['var'], width: 4, singleLine: false });
    expect(plan('\\beval\\(')).toEqual({ literals: ['eval('], width: 5, singleLine: true });
    expect(plan('a😀b')).toEqual({ literals: ['a😀b'], width: 4, singleLine: true });
  });

  it('keeps an unbounded pattern to the line when no match can cross a line feed', () => {
    expect(plan('TODO.*')).toEqual({ literals: ['TODO'], width: null, singleLine: true });
    expect(plan('console\\.log\\([^)\\n]*\\)')).toEqual({ literals: ['console.log('], width: null, singleLine: true });
  });

  it('has none when a match may be long and span lines, needs no literal, or looks behind', () => {
    expect(plan('TODO.*', RE2JS.DOTALL)).toBeNull();
    expect(plan('TODO[^x]*')).toBeNull();
    expect(plan('TODO\\s+done')).toBeNull();
    expect(plan('[a-z]+')).toBeNull();
    expect(plan('(?i)todo')).toBeNull();
    expect(plan('(?<=a)TODO', RE2JS.LOOKBEHINDS)).toBeNull();
  });

  it('takes every literal of an alternation and one side of a conjunction', () => {
    expect(plan('foo|barbaz')?.literals).toEqual(['foo', 'barbaz']);
    expect(plan('fo.*barbaz')?.literals).toEqual(['barbaz']);
  });

  it('merges windows that overlap or nearly do, and never starts one between the halves of a surrogate pair', () => {
    const p = plan('ab')!;
    expect([...matchWindows(p, 'xxabab..ab')]).toEqual([2, 10]);
    expect([...matchWindows(p, `ab${'.'.repeat(40)}ab`)]).toEqual([0, 2, 42, 44]);
    // A class of one code unit each (BMP only) next to b: the window would begin at 😀's second half.
    const bmp = RE2JS.compile('[^\\x{10000}-\\x{10FFFF}]b');
    expect(searchPlan(bmp)?.width).toBe(2);
    expect([...matchWindows(searchPlan(bmp)!, '😀b')]).toEqual([0, 3]);
    // Searched from that half, the lone low surrogate would match the class: the whole text has no match.
    expect(windowMatches(bmp, '😀b')).toEqual(wholeTextMatches(bmp, '😀b'));
    expect(wholeTextMatches(bmp, '😀b')).toEqual([]);
  });
});

describe('window search finds exactly what the whole-text search finds', () => {
  it('the same matches, in order (generated patterns × texts)', () => {
    let planned = 0;
    fc.assert(
      fc.property(patternArb, flagsArb, fc.array(textArb, { minLength: 1, maxLength: 6 }), aroundArb, (pattern, flags, parts, around) => {
        const m = matcherOf(pattern, flags);
        fc.pre(m !== null);
        const text = textNear(pattern, parts, around);
        const got = windowMatches(m!.re2, text);
        if (got === null) return;
        planned += 1;
        const expected = wholeTextMatches(m!.re2, text);
        expect(got).toEqual(expected);
        // Windows joined only where they overlap: the smallest a search may use.
        expect(windowMatches(m!.re2, text, -1)).toEqual(expected);
        // The plan's claim itself: every match lies inside one window (so none needs the context around it).
        const windows = matchWindows(searchPlan(m!.re2)!, text, -1);
        for (const [s, e] of expected) {
          let inside = false;
          for (let w = 0; w < windows.length; w += 2) if (windows[w]! <= s && e <= windows[w + 1]!) inside = true;
          expect(inside, `match [${s}, ${e}) outside every window ${[...windows].join(',')}`).toBe(true);
        }
      }),
      RUNS,
    );
    // The property must have been exercised, not skipped for want of plans.
    expect(planned).toBeGreaterThan(RUNS.numRuns / 5);
  });

  it('the same hits as evaluate, with exclude, must_contain and a hit cap (generated)', () => {
    fc.assert(
      fc.property(
        patternArb,
        flagsArb,
        fc.array(textArb, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(undefined, 'required'),
        fc.constantFrom(undefined, 'b', '^a', 'x$'),
        fc.constantFrom(1, 2, 1000),
        aroundArb,
        (pattern, flags, parts, mode, exclude, maxHits, around) => {
          const m = matcherOf(pattern, flags, mode, exclude);
          fc.pre(m !== null);
          const plan = searchPlan(m!.re2);
          fc.pre(plan !== null);
          const text = textNear(pattern, parts, around);
          const options = { budgetMs: 60_000, maxHits };
          const { lineTexts, ...got } = evaluateInWindows(m!, plan!, text, options);
          expect(got).toEqual(evaluate(m!, text, options));
          const table = new LineTable(text);
          expect(lineTexts).toEqual(got.hits.map((h) => table.lineText(h.line)));
        },
      ),
      RUNS,
    );
  });

  it('the benchmark patterns on JavaScript-like text with CRLF, tabs and astral characters', () => {
    const lines = fc.array(
      fc.constantFrom(
        'var a = 1;',
        '  var\tb;',
        'variable = eval(x)',
        'x.eval(y) // TODO',
        'debugger;',
        'console.log(1)',
        'var',
        '',
        '\r',
        '😀var ',
      ),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(lines, fc.constantFrom('\n', '\r\n'), (ls, eol) => {
        const text = ls.join(eol);
        for (const pattern of ['\\beval\\(', 'TODO', 'console\\.log\\(', '\\bdebugger\\b', '\\bvar\\s']) {
          const m = matcherOf(pattern, '')!;
          const plan = searchPlan(m.re2)!;
          expect(plan).not.toBeNull();
          const { lineTexts: _, ...got } = evaluateInWindows(m, plan, text, BUDGET);
          expect(got).toEqual(evaluate(m, text, BUDGET));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('LineWalk', () => {
  it('agrees with the line of every offset asked for in order', () => {
    const text = 'ab\n\ncd\ne';
    const walk = new LineWalk(text);
    const lines = [0, 1, 2, 3, 4, 6, 7, 8].map((o) => [walk.lineAt(o), walk.lineText()]);
    expect(lines).toEqual([
      [1, 'ab'],
      [1, 'ab'],
      [1, 'ab'],
      [2, ''],
      [3, 'cd'],
      [3, 'cd'],
      [4, 'e'],
      [4, 'e'],
    ]);
  });
});
