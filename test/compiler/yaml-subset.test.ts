/**
 * The front-matter fast path (src/yaml-subset.ts) gives exactly what the `yaml` package gives, or
 * steps aside: every fixture, every example and thousands of generated tricky documents are read
 * both ways and compared — data, key order, prototypes, and the diagnostics of refused blocks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPromotedArtifact } from '../../compiler/promote.js';
import { readFrontMatterWith } from '../../src/frontmatter.js';
import type { RegistryEntry } from '../../src/types.js';
import { parseYamlSubset } from '../../src/yaml-subset.js';
import { FIXTURES } from '../helpers/repo.js';
import { markdownFilesUnder } from '../helpers/files.js';

/** Values with their prototypes spelled out, so a plain object and a null-prototype one differ. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return { array: v.map(shape) };
  if (typeof v === 'object' && v !== null) {
    const proto = Object.getPrototypeOf(v);
    return {
      proto: proto === null ? 'null' : proto === Object.prototype ? 'object' : 'other',
      entries: Object.entries(v).map(([k, x]) => [k, shape(x)]),
    };
  }
  return v;
}

function bothWays(text: string | Buffer, file = 'f.md'): { fast: unknown; full: unknown } {
  const fast = readFrontMatterWith(text, file, { subset: true });
  const full = readFrontMatterWith(text, file, { subset: false });
  const view = (r: typeof fast): unknown => (r.ok ? { ok: true, data: shape(r.data), yaml: r.yaml, line: r.yamlLine } : r);
  return { fast: view(fast), full: view(full) };
}

const ENTRY: RegistryEntry = {
  id: 'f-2026-01-01-00001',
  version: 1,
  tier: 'local',
  source: { repo: 'r', session: '2026-01-01', file: '.agents/council/s.md', skill: 'post-mortem' },
  date: '2026-01-01',
  severity: 'critical',
  category: 'validation-gap',
  pattern: 'A "quoted" pattern: with a colon, a # hash, a back\\slash and é ü 日本',
  detection_question: "Does it repeat? It's 'likely'.",
  checklist_item: 'Check `x` for [brackets] and {braces}, - dashes and * stars.',
  applicable_languages: ['typescript', 'shell'],
  applicable_when: ['validation-gap'],
  status: 'active',
  superseded_by: null,
  dedup_key: 'validation-gap|a-quoted-pattern|validation-gap',
  hit_count: 0,
  last_cited: null,
  ttl_days: 30,
  confidence: 'high',
} as RegistryEntry;

/** The mechanical artifact of the compile benchmark, as written there. */
const MECHANICAL = [
  '---',
  'id: "f-2026-01-01-00007"',
  'version: 1',
  'compiler_targets: ["plan","pre-mortem","constraint"]',
  'compiler:',
  '  applies_to:',
  '    scope: "files"',
  '    path_globs: ["src/**/*.ts"]',
  '  detector:',
  '    kind: "regex"',
  '    pattern: "\\\\beval\\\\("',
  '  evidence:',
  '    positive_refs: [".agents/constraints/fixtures/f/bad.ts"]',
  '    negative_control_refs: [".agents/constraints/fixtures/f/good.ts"]',
  '---',
  '# Finding',
  '',
].join('\n');

describe('the front-matter fast path', () => {
  it('answers for the front matter the compiler writes and the benchmark artifacts (so compile uses it)', () => {
    const promoted = renderPromotedArtifact(ENTRY);
    for (const text of [promoted, MECHANICAL]) {
      const yaml = `${text.slice(4, text.indexOf('\n---\n') + 1)}`;
      expect(parseYamlSubset(yaml)).not.toBeNull();
      const { fast, full } = bothWays(text);
      expect(fast).toStrictEqual(full);
    }
  });

  it('agrees with the yaml package on every fixture and example', () => {
    const files = [...markdownFilesUnder(FIXTURES), ...markdownFilesUnder(path.resolve('examples'))];
    expect(files.length).toBeGreaterThan(50);
    let answered = 0;
    for (const f of files) {
      const text = readFileSync(f);
      const { fast, full } = bothWays(text, f);
      expect(fast, f).toStrictEqual(full);
      const s = text.toString('utf8');
      if (s.startsWith('---\n') && s.indexOf('\n---\n') > 0 && parseYamlSubset(s.slice(4, s.indexOf('\n---\n') + 1)) !== null)
        answered += 1;
    }
    expect(answered).toBeGreaterThan(20);
  });

  const TRICKY: string[] = [
    'a: 1\nb: "x"\n',
    'a: 0755\n',
    'a: 0\nb: 007\nc: -1\nd: +1\ne: 1e3\nf: 1.5\ng: 0x1F\nh: 0o17\ni: .inf\nj: .NaN\n',
    'a: 123456789012345\nb: 1234567890123456789\n',
    'a: true\nb: false\nc: null\nd: ~\ne: True\nf: TRUE\ng: Null\nh: yes\ni: No\nj: on\n',
    'a: it\'s\nb: a, b\nc: a - b\nd: a | b\ne: a > b\nf: a & b\ng: a * b\nh: a ! b\ni: say "hi"\n',
    'a: a: b\n',
    'a: a #b\nb: a#b\n',
    'a: http://x.y/z\n',
    'a: "a\\\\b"\nb: "\\"q\\""\nc: "\\/"\nd: "\\n\\t"\ne: "\\x41"\nf: "\\u00e9"\ng: "\\e"\nh: "\\ "\n',
    "a: 'it''s'\nb: 'a\\b'\nc: ''\nd: \"\"\n",
    'a: "x" # c\nb: "x"# c\nc: "x"y\nd: "x"   \n',
    'a: []\nb: [ ]\nc: ["a","b"]\nd: [ "a" , \'b\' ]\ne: ["a",]\nf: [a, b]\ng: [["a"]]\nh: [ ]  # c\n',
    'a: "unterminated\n',
    'a: "multi\n  line"\n',
    'a: plain\n  continued\n',
    'a:\n  b: 1\n  c:\n    d: "x"\n  e: [ "y" ]\nf: 2\n',
    'a:\n  b: 1\n c: 2\n',
    'a:\n    b: 1\n  c: 2\n',
    'a:\nb: 1\n',
    'a:\n- x\n- y\n',
    'a:\n  - x\n',
    'a: |\n  text\n',
    'a: >-\n  text\n',
    'a: &x "v"\nb: *x\n',
    'a: !!str 1\n',
    'a: 1\na: 2\n',
    'a:\n  b: 1\n  b: 2\n',
    'constructor: 1\n',
    'a:\n  prototype: 1\n',
    'true: 1\n',
    'null: 1\n',
    '"a": 1\n',
    "'a': 1\n",
    'a : 1\n',
    'a:1\n',
    '  a: 1\n  b: 2\n',
    '# only a comment\n',
    '\n\na: 1\n\n# c\n  # indented comment\nb: 2\n',
    'a:\n  # comment\n  b: 1\n',
    'a: "tab\there"\n',
    'a:\t1\n',
    'a: 1\r\nb: 2\r\n',
    'a: é ü 日本\nb: "日本"\nc: 😀\n',
    'a: "\u2028"\n',
    'a: [a]b\n',
    'a: {b: 1}\n',
    'a: ? b\n',
    '? a\n: 1\n',
    'a-b: 1\nc_d: 2\nE: 3\n',
    'a: -\nb: - x\n',
    'a: @x\nb: `x`\nc: %x\n',
    'a: x\\\n',
    'a: "x\\\\"\n',
    'a: b  \n',
    'a: b   c\n',
    '---\na: 1\n',
    'a: 1\n...\n',
    '%YAML 1.2\n---\na: 1\n',
  ];

  it('agrees with the yaml package on tricky YAML, whole and line by line', () => {
    // One line at a time too: one odd line sends a whole document to the full parser.
    const singles = TRICKY.flatMap((doc) =>
      doc
        .split('\n')
        .filter((l) => /^[^ ]/.test(l))
        .map((l) => `${l}\n`),
    );
    for (const yaml of [...TRICKY, ...singles]) {
      const { fast, full } = bothWays(`---\n${yaml}---\nbody\n`);
      expect(fast, JSON.stringify(yaml)).toStrictEqual(full);
    }
  });

  it('agrees with the yaml package on 3,000 generated documents', () => {
    const values = [
      '1',
      '0',
      '07',
      '-1',
      '1.0',
      '1e3',
      '123456789012345',
      '9999999999999999',
      'true',
      'false',
      'null',
      '~',
      'True',
      'NULL',
      'yes',
      'word',
      'two words',
      "it's",
      'a, b',
      'a: b',
      'a #b',
      'a#b',
      'x]',
      'a [b]',
      'a {b}',
      'é',
      'a\\b',
      'a  ',
      'a  b',
      '"s"',
      '"a\\\\b"',
      '"a\\"b"',
      '"a\\nb"',
      '"a\\tb"',
      '"a\\/b"',
      '"\\x41"',
      '"\\u263A"',
      '"a" # c',
      '"a"#c',
      '"a"b',
      '""',
      '"a:b"',
      '"#"',
      "'s'",
      "'it''s'",
      "'a\\b'",
      "''",
      "'a'b",
      '[]',
      '[ ]',
      '["a"]',
      '["a","b"]',
      '[ \'a\' , "b" ]',
      '["a",]',
      '[a]',
      '["a"',
      '[["a"]]',
      '["a"] # c',
      '["a"]x',
      '&a "x"',
      '*a',
      '!!str x',
      '|',
      '>',
      '- x',
      '? x',
      '{}',
    ];
    const keys = ['id', 'a', 'b-c', 'd_e', 'Title', 'x1', 'true', 'constructor', '"q"', 'a b'];
    let seed = 42;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;
    let answered = 0;
    for (let doc = 0; doc < 3000; doc += 1) {
      const lines: string[] = [];
      const block = (indent: number, depth: number): void => {
        const n = 1 + rand(4);
        for (let i = 0; i < n; i += 1) {
          const pad = ' '.repeat(indent + (rand(40) === 0 ? 1 : 0));
          if (rand(12) === 0) lines.push(rand(2) === 0 ? '' : `${pad}# note`);
          const key = rand(10) === 0 ? pick(keys) : `k${i}`;
          if (depth < 2 && rand(5) === 0) {
            lines.push(`${pad}${key}:`);
            block(indent + 2 + rand(2) * 2, depth + 1);
          } else lines.push(`${pad}${key}: ${pick(values)}`);
        }
      };
      block(0, 0);
      const yaml = `${lines.join('\n')}\n`;
      if (parseYamlSubset(yaml) !== null) answered += 1;
      const { fast, full } = bothWays(`---\n${yaml}---\n`);
      expect(fast, JSON.stringify(yaml)).toStrictEqual(full);
    }
    // The generator is tricky on purpose, but a fair share stays inside the subset.
    expect(answered).toBeGreaterThan(100);
  });
});
