import { describe, expect, it } from 'vitest';
import { matchEntry, rankEntries, severityRank } from '../../src/registry/rank.js';
import { makeRepo, runFindings } from '../helpers/repo.js';
import { entry, jsonl, REGISTRY } from './entries.js';

const ids = (...args: Parameters<typeof rankEntries>): string[] => rankEntries(...args).map((r) => r.entry.id);

describe('severityRank', () => {
  it.each([
    ['critical', 0],
    ['blocker', 0],
    ['high', 1],
    ['significant', 1],
    ['major', 1],
    ['medium', 2],
    ['moderate', 2],
    ['low', 3],
    ['minor', 3],
    ['nit', 4],
    ['whatever', 5],
    ['', 5],
    [' High ', 1],
  ])('%s → %d', (s, n) => expect(severityRank(s)).toBe(n));
});

describe('rankEntries', () => {
  const e = (id: string, over: Parameters<typeof entry>[0] = {}) => entry({ id, pattern: `pattern ${id}`, ...over });
  it('active only, severity first, unknown severities last, capped at 5', () => {
    const list = [
      e('a', { severity: 'nit' }),
      e('b', { severity: 'weird' }),
      e('c', { severity: 'minor' }),
      e('d', { severity: 'moderate' }),
      e('e', { severity: 'major' }),
      e('f', { severity: 'blocker' }),
      e('g', { severity: 'critical', status: 'retired' }),
      e('h', { severity: 'critical', status: 'superseded', superseded_by: 'f' }),
    ];
    expect(ids(list)).toEqual(['f', 'e', 'd', 'c', 'a']);
    expect(ids(list, { limit: 10 })).toEqual(['f', 'e', 'd', 'c', 'a', 'b']);
  });
  it('within a severity: work shape, then language, then path, then keywords, then id', () => {
    const md = { applicable_languages: ['markdown'] };
    const list = [
      e('z-plain', md),
      e('y-keyword', { ...md, pattern: 'Retag scripts lose annotated tags' }),
      e('x-path', { ...md, checklist_item: 'Touch src/registry only with tests' }),
      e('w-lang', { applicable_languages: ['go'] }),
      e('v-shape', { ...md, applicable_when: ['docs-drift'] }),
      e('u-shape-lang', { applicable_when: ['docs-drift'], applicable_languages: ['go'] }),
    ];
    const q = { when: ['docs-drift'], languages: ['go'], paths: ['src/registry/writer.ts'], text: 'annotated retag', limit: 10 };
    expect(ids(list, q)).toEqual(['u-shape-lang', 'v-shape', 'w-lang', 'x-path', 'y-keyword', 'z-plain']);
  });
  it('severity beats every overlap', () => {
    const list = [e('a', { severity: 'low', applicable_when: ['docs-drift'] }), e('b', { severity: 'high' })];
    expect(ids(list, { when: ['docs-drift'] })).toEqual(['b', 'a']);
  });
  it('more overlap ranks higher; path overlap counts a file of the entry language', () => {
    const list = [
      e('a', { applicable_when: ['test-gap'] }),
      e('b', { applicable_when: ['test-gap', 'docs-drift'] }),
      e('c', { applicable_languages: ['go'] }),
    ];
    expect(ids(list, { when: ['test-gap', 'docs-drift'] })).toEqual(['b', 'a', 'c']);
    expect(ids(list, { paths: ['cmd/main.go'] })).toEqual(['c', 'a', 'b']);
  });
  it('ties are broken by id (code-unit order), so the order is total and input order does not matter', () => {
    const list = [e('b'), e('B'), e('a'), e('_')];
    expect(ids(list)).toEqual(['B', '_', 'a', 'b']);
    expect(ids([...list].reverse())).toEqual(['B', '_', 'a', 'b']);
  });
});

describe('path overlap compares whole path segments, never substrings of prose', () => {
  const src = { repo: 'example/repo', session: 's1', skill: 'review' };
  const base = entry({ id: 'p', source: { ...src, file: 'src/registry/writer.ts' }, applicable_languages: ['typescript'] });
  const latest = entry({
    id: 'l',
    pattern: 'Uses the latest schema version',
    source: { ...src, file: 'reviews/r1.md' },
    applicable_languages: ['markdown'],
  });
  const testGap = entry({
    id: 't',
    category: 'test-gap',
    applicable_when: ['test-gap'],
    source: { ...src, file: 'reviews/r1.md' },
    applicable_languages: ['markdown'],
  });
  const docsDrift = entry({
    id: 'd',
    category: 'docs-drift',
    applicable_when: ['docs-drift'],
    pattern: 'Docs drift from the code',
    source: { ...src, file: 'reviews/r1.md' },
    applicable_languages: ['markdown'],
  });
  const prose = entry({
    id: 'x',
    checklist_item: 'Touch `src/registry/` only with tests.',
    source: { ...src, file: 'notes.md' },
    applicable_languages: ['markdown'],
  });
  const golang = entry({ id: 'g', applicable_languages: ['go'] });
  it.each([
    // false positives of the substring rule
    ['"latest" is no path "test/"', latest, 'test/x.py', 0],
    ['"a" in prose is no folder "a/"', base, 'a/x.zz', 0],
    ['the category test-gap is no folder test/', testGap, 'test/', 0],
    ['the category docs-drift is no folder docs/', docsDrift, 'docs/', 0],
    ['a longer segment is another folder', base, 'src/registry-old/x.rs', 0],
    ['a sibling folder does not count', base, 'src/cli/x.rs', 0],
    // what does count
    ['the same file', base, 'src/registry/writer.ts', 1],
    ['the same file, ./ and case', base, './SRC/registry/writer.ts', 1],
    ['a file in the same folder', base, 'src/registry/other.rs', 1],
    ['a folder holding the source file', base, 'src/', 1],
    ['a folder given without a slash', base, 'src/registry', 1],
    ['a deeper folder given without a slash', entry({ id: 'deep', source: { ...src, file: 'a/b/c/d.md' } }), 'a/b/c', 1],
    ['a path named in the prose (folder)', prose, 'src/registry/writer.rs', 1],
    ['a file of the entry language', golang, 'cmd/main.go', 1],
    ['another language', golang, 'cmd/main.rs', 0],
  ] as const)('%s', (_name, e, p, n) => {
    expect(matchEntry(e, { paths: [p] }).paths).toBe(n);
  });
});

describe('findings rank', () => {
  const registry = jsonl(
    entry({ id: 'f-1', severity: 'low', pattern: 'Low one' }),
    entry({ id: 'f-2', severity: 'critical', pattern: 'Critical one' }),
    entry({ id: 'f-3', severity: 'high', pattern: 'High one', applicable_when: ['docs-drift'] }),
    '{not json',
  );
  it('prints the ranking; reader warnings go to stderr; --json is parseable', async () => {
    const repo = makeRepo({ [REGISTRY]: registry });
    const r = await runFindings(['rank', '--root', repo.root, '--when', 'docs-drift', '--limit', '2'], { cwd: repo.root });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^1\. f-2 .*\n[\s\S]*2\. f-3 /);
    expect(r.stdout).not.toContain('f-1');
    expect(r.stderr).toContain(`${REGISTRY}:4`);
    const j = await runFindings(['rank', '--root', repo.root, '--json', '--text', 'high'], { cwd: repo.root });
    const out = JSON.parse(j.stdout) as { rank: number; id: string; match: { keywords: number } }[];
    expect(out.map((o) => [o.rank, o.id])).toEqual([
      [1, 'f-2'],
      [2, 'f-3'],
      [3, 'f-1'],
    ]);
    expect(out[1]?.match.keywords).toBe(1);
    expect(j.stderr).toContain('registry/invalid-json');
  });
  it('--path test/ and docs/ do not match test-gap and docs-drift entries by their category', async () => {
    const repo = makeRepo({ [REGISTRY]: registry });
    const r = await runFindings(['rank', '--root', repo.root, '--json', '--path', 'test/,docs/,a/x.zz,test/x.py'], { cwd: repo.root });
    const out = JSON.parse(r.stdout) as { id: string; match: { paths: number } }[];
    expect(out.map((o) => [o.id, o.match.paths])).toEqual([
      ['f-2', 0],
      ['f-3', 0],
      ['f-1', 0],
    ]);
    const hit = await runFindings(['rank', '--root', repo.root, '--json', '--path', 'reviews/other.md'], { cwd: repo.root });
    expect((JSON.parse(hit.stdout) as { match: { paths: number } }[]).map((o) => o.match.paths)).toEqual([1, 1, 1]);
  });
  it('a missing registry ranks nothing, silently', async () => {
    const repo = makeRepo();
    const r = await runFindings(['rank', '--root', repo.root, '--json'], { cwd: repo.root });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '[]\n', '']);
  });
  it.each([[['--limit', '0']], [['--limit', 'x']], [['--when', 'refactor']]])('bad usage %j exits 2', async (args) => {
    const repo = makeRepo();
    const r = await runFindings(['rank', '--root', repo.root, ...args], { cwd: repo.root });
    expect(r.code).toBe(2);
  });
});
