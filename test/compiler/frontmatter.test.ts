/** Front-matter readers: hostile input, and parity of the remark reader with the fast gray-matter one. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFrontMatterRemark } from '../../compiler/markdown.js';
import { renderPromotedArtifact, promotedFrontMatter } from '../../compiler/promote.js';
import { readFrontMatter } from '../../src/frontmatter.js';
import type { RegistryEntry } from '../../src/types.js';
import { FIXTURES } from '../helpers/repo.js';

const both = (text: string | Buffer) => ({ fast: readFrontMatter(text, 'f.md'), remark: readFrontMatterRemark(text, 'f.md') });
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
      const r = both(text);
      expect(rule(r.fast)).toBe(ruleId);
      expect(rule(r.remark)).toBe(ruleId);
      expect(r.fast).toEqual(r.remark);
      expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
      expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    });
  }

  it('YAML 1.2: dates stay strings, 0755 is decimal, yes is a string', () => {
    const r = both('---\ndate: 2026-01-02\nmode: 0755\nflag: yes\n---\n');
    expect(r.fast.ok && { ...r.fast.data }).toEqual({ date: '2026-01-02', mode: 755, flag: 'yes' });
    expect(r.remark).toEqual(r.fast);
  });

  it('points at the line of a YAML error', () => {
    const r = both('---\na: 1\nb: [unclosed\n---\n');
    expect(r.fast.ok).toBe(false);
    expect(!r.fast.ok && r.fast.diagnostics[0]!.line).toBeGreaterThanOrEqual(3);
    expect(r.remark).toEqual(r.fast);
  });
});

function mdFiles(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) out.push(...mdFiles(p));
    else if (n.endsWith('.md')) out.push(p);
  }
  return out;
}

describe('parser parity', () => {
  const files = [...mdFiles(path.join(FIXTURES, 'compiler')), ...mdFiles(path.join(FIXTURES, 'agentops/.agents'))];
  it(`remark and gray-matter readers agree on all ${files.length} fixture files`, () => {
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const text = readFileSync(f);
      const r = both(text);
      expect(r.remark, f).toEqual(r.fast);
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
    const r = both(text);
    expect(r.remark.ok && { ...r.remark.data }).toEqual(promotedFrontMatter(entry));
    expect(r.fast).toEqual(r.remark);
  });
});
