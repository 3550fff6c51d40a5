/**
 * The one front-matter reader (gray-matter splits, the `yaml` package parses): hostile input, the
 * fence rules judged on gray-matter's split, and the promoted artifacts' round trip.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promotedFrontMatter, promotedYaml, renderPromotedArtifact } from '../../compiler/promote.js';
import { findFence, readFrontMatter } from '../../src/frontmatter.js';
import type { RegistryEntry } from '../../src/types.js';
import { FIXTURES } from '../helpers/repo.js';
import { markdownFilesUnder } from '../helpers/files.js';

const read = (text: string | Buffer) => readFrontMatter(text, 'f.md');
const rule = (r: ReturnType<typeof readFrontMatter>) => (r.ok ? 'ok' : r.diagnostics[0]!.ruleId);

const HOSTILE: Record<string, [string | Buffer, string]> = {
  'js front matter is refused, never run': ['---js\n{ a: (globalThis.pwned = 1) }\n---\nbody', 'artifact/front-matter-language'],
  'javascript front matter': ['---javascript\nmodule.exports = {}\n---\n', 'artifact/front-matter-language'],
  'coffee front matter': ['---coffee\na: 1\n---\n', 'artifact/front-matter-language'],
  'unclosed fence': ['---\nid: "x"\n\nbody\n', 'artifact/unclosed-front-matter'],
  'alias bomb': [
    '---\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,' +
      '*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\n',
    'artifact/yaml',
  ],
  '__proto__ key': ['---\n__proto__: {polluted: true}\n---\n', 'artifact/hostile-key'],
  'nested constructor key': ['---\ncompiler:\n  constructor: 1\n---\n', 'artifact/hostile-key'],
  'custom tag': ['---\na: !!js/function "return 1"\n---\n', 'artifact/yaml'],
  'duplicate key': ['---\na: 1\na: 2\n---\n', 'artifact/yaml'],
  'binary bytes': [Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0xfe, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]), 'artifact/binary'],
  'NUL byte': ['---\na: "\0"\n---\n', 'artifact/binary'],
  'no front matter': ['# Just a heading\n', 'artifact/no-front-matter'],
  'ambiguous fence line': ['---\na: 1\n---x\nb: 2\n---\n', 'artifact/ambiguous-fence'],
  'a 50 MB artifact is refused without parsing': [`---\nid: "x"\n---\n${'a'.repeat(50 * 1024 * 1024)}`, 'artifact/too-large'],
};

describe('hostile front matter', () => {
  for (const [name, [text, ruleId]] of Object.entries(HOSTILE)) {
    it(name, () => {
      expect(rule(read(text))).toBe(ruleId);
      expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
      expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    });
  }

  it('YAML 1.2: dates stay strings, 0755 is decimal, yes is a string', () => {
    const r = read('---\ndate: 2026-01-02\nmode: 0755\nflag: yes\n---\n');
    expect(r.ok && { ...r.data }).toEqual({ date: '2026-01-02', mode: 755, flag: 'yes' });
  });

  it('points at the line of a YAML error', () => {
    const r = read('---\na: 1\nb: [unclosed\n---\n');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.diagnostics[0]!.line).toBeGreaterThanOrEqual(3);
  });
});

describe('the block is where gray-matter finds it', () => {
  const cases: [string, string, number | null, string][] = [
    // text, rule or 'ok', line of the diagnostic (null: ok), yaml text read
    ['---\nid: "x"\n---\nbody\n', 'ok', null, 'id: "x"\n'],
    ['---\r\nid: "x"\r\n---\r\nbody\r\n', 'ok', null, 'id: "x"\r\n'],
    ['---   \nid: "x"\n---  \n', 'ok', null, 'id: "x"\n'],
    ['---\n---\n', 'ok', null, ''],
    ['---\nid: "x"\n---', 'ok', null, 'id: "x"\n'],
    ['---\n# only a comment\n---\n', 'ok', null, '# only a comment\n'],
    ['---yaml\nid: "x"\n---\n', 'artifact/front-matter-language', 1, ''],
    ['---js', 'artifact/front-matter-language', 1, ''],
    ['----\nid: "x"\n----\n', 'artifact/no-front-matter', 1, ''],
    ['\n---\nid: "x"\n---\n', 'artifact/no-front-matter', 1, ''],
    ['---', 'artifact/unclosed-front-matter', 1, ''],
    ['---\na: 1\nb: 2\n---- \n', 'artifact/ambiguous-fence', 4, ''],
    // The fence is judged before the YAML: the bad YAML above the ambiguous line is not the report.
    ['---\na: [\n---x\n---\n', 'artifact/ambiguous-fence', 3, ''],
  ];
  for (const [text, ruleId, line, yaml] of cases) {
    it(JSON.stringify(text), () => {
      const r = read(text);
      expect(rule(r)).toBe(ruleId);
      if (r.ok) {
        expect(r.yaml).toBe(yaml);
        expect(findFence(text, 'f.md').ok).toBe(true);
      } else {
        expect(r.diagnostics[0]!.line).toBe(line);
        expect(findFence(text, 'f.md').ok || rule(r) === 'artifact/yaml').toBe(false);
      }
    });
  }

  it('a comment-only block is an empty mapping, and data never shares a prototype', () => {
    const r = read('---\n# nothing\n---\n');
    expect(r.ok && Object.keys(r.data)).toEqual([]);
    expect(r.ok && Object.getPrototypeOf(r.data)).toBe(null);
  });

  it('gray-matter cache is bypassed: mutating one result does not leak into the next read', () => {
    const text = '---\nid: "x"\n---\n';
    const first = read(text);
    if (first.ok) first.data['id'] = 'changed';
    const second = read(text);
    expect(second.ok && second.data['id']).toBe('x');
  });
});

describe('fixtures', () => {
  const files = [...markdownFilesUnder(path.join(FIXTURES, 'compiler')), ...markdownFilesUnder(path.join(FIXTURES, 'agentops/.agents'))];
  it(`all ${files.length} fixture files read, and the block found without parsing is the block parsed`, () => {
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const r = read(text);
      const fence = findFence(text, f);
      if (r.ok && fence.ok) expect(r.yaml, f).toBe(text.slice(text.indexOf('\n') + 1, text.lastIndexOf('\n', fence.fence.end - 2) + 1));
      else if (!r.ok && r.diagnostics[0]!.ruleId !== 'artifact/yaml' && r.diagnostics[0]!.ruleId !== 'artifact/hostile-key')
        expect(fence.ok, f).toBe(false);
    }
  });

  it('a promoted artifact parses back to exactly the front matter the compiler assumed', () => {
    const entry: RegistryEntry = {
      id: 'f-1',
      version: 1,
      tier: 'pulled',
      source: { repo: 'r', session: 's', file: 'a "b" \\ c.md', skill: 'k' },
      date: '2026-01-01',
      severity: 'critical',
      category: 'c',
      pattern: 'Quotes " and \\ and\nnewline and \u2028 and ünï',
      detection_question: 'q?',
      checklist_item: 'd.',
      applicable_languages: [],
      applicable_when: ['test-gap', 'docs-drift'],
      status: 'active',
      superseded_by: null,
      dedup_key: 'c|x|test-gap',
      hit_count: 3,
      last_cited: null,
      ttl_days: 7,
      confidence: 'low',
    };
    const text = renderPromotedArtifact(entry);
    const r = read(text);
    expect(r.ok && { ...r.data }).toEqual(promotedFrontMatter(entry));
    // The compiler takes the YAML text of what it rendered without a second split.
    expect(r.ok && r.yaml).toBe(promotedYaml(text));
  });
});
