import { describe, expect, it } from 'vitest';
import { rankEntries, severityRank } from '../../src/registry/rank.js';
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
    const list = [e('a', { severity: 'nit' }), e('b', { severity: 'weird' }), e('c', { severity: 'minor' }), e('d', { severity: 'moderate' }), e('e', { severity: 'major' }), e('f', { severity: 'blocker' }), e('g', { severity: 'critical', status: 'retired' }), e('h', { severity: 'critical', status: 'superseded', superseded_by: 'f' })];
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
    const list = [e('a', { applicable_when: ['test-gap'] }), e('b', { applicable_when: ['test-gap', 'docs-drift'] }), e('c', { applicable_languages: ['go'] })];
    expect(ids(list, { when: ['test-gap', 'docs-drift'] })).toEqual(['b', 'a', 'c']);
    expect(ids(list, { paths: ['cmd/main.go'] })).toEqual(['c', 'a', 'b']);
  });
  it('ties are broken by id (code-unit order), so the order is total and input order does not matter', () => {
    const list = [e('b'), e('B'), e('a'), e('_')];
    expect(ids(list)).toEqual(['B', '_', 'a', 'b']);
    expect(ids([...list].reverse())).toEqual(['B', '_', 'a', 'b']);
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
  it('a missing registry ranks nothing, silently', async () => {
    const repo = makeRepo();
    const r = await runFindings(['rank', '--root', repo.root, '--json'], { cwd: repo.root });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '[]\n', '']);
  });
  it.each([
    [['--limit', '0']],
    [['--limit', 'x']],
    [['--when', 'refactor']],
  ])('bad usage %j exits 2', async (args) => {
    const repo = makeRepo();
    const r = await runFindings(['rank', '--root', repo.root, ...args], { cwd: repo.root });
    expect(r.code).toBe(2);
  });
});
