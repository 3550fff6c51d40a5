import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runFindings, FIXTURES } from '../helpers/repo.js';
import { entry, jsonl, line, REGISTRY } from './entries.js';

const MINIMAL = path.join(FIXTURES, 'registry/minimal-input.json');

describe('findings add', () => {
  it('--file appends a filled entry and says what it did', async () => {
    const repo = makeRepo();
    const r = await runFindings(['add', '--root', repo.root, '--file', MINIMAL], { cwd: repo.root });
    expect([r.code, r.stdout]).toEqual([0, 'findings add: appended f-2026-05-01-001\n']);
    expect(JSON.parse(repo.read(REGISTRY))).toMatchObject({
      version: 1,
      hit_count: 0,
      last_cited: null,
      superseded_by: null,
      dedup_key: 'test-gap|new-parsers-ship-without-a-malformedinput-test|test-gap',
    });
    const again = await runFindings(['add', '--root', repo.root, '--file', MINIMAL], { cwd: repo.root });
    expect(again.stdout).toBe('findings add: unchanged f-2026-05-01-001\n');
  });
  it('reads an array from standard input with "-" and by default', async () => {
    const repo = makeRepo();
    const stdin = JSON.stringify([entry({ id: 'f-1' }), entry({ id: 'f-2', pattern: 'Other' })]);
    expect((await runFindings(['add', '-', '--root', repo.root], { cwd: repo.root, stdin })).code).toBe(0);
    expect(
      (await runFindings(['add', '--root', repo.root], { cwd: repo.root, stdin: JSON.stringify(entry({ id: 'f-3', pattern: 'Third' })) }))
        .code,
    ).toBe(0);
    expect(repo.read(REGISTRY).trim().split('\n')).toHaveLength(3);
  });
  it('accepts JSON lines copied from another registry', async () => {
    const repo = makeRepo();
    const r = await runFindings(['add', '--root', repo.root], {
      cwd: repo.root,
      stdin: jsonl(entry({ id: 'f-1' }), entry({ id: 'f-2', pattern: 'Other' })),
    });
    expect(r.stdout).toBe('findings add: appended f-1, f-2\n');
  });
  it('an invalid entry: exit 1, the field named, nothing written', async () => {
    const repo = makeRepo({ [REGISTRY]: jsonl(entry({ id: 'f-1' })) });
    const bad = { ...entry({ id: 'f-2', pattern: 'x' }), severity: 3 };
    const r = await runFindings(['add', '--root', repo.root, '--json'], {
      cwd: repo.root,
      stdin: JSON.stringify([entry({ id: 'f-3', pattern: 'y' }), bad]),
    });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { file: string; ruleId: string; message: string }[];
    expect(out.map((d) => [d.file, d.ruleId])).toEqual([['<stdin>', 'registry/schema']]);
    expect(out[0]?.message).toContain('field "severity" must be string');
    expect(repo.read(REGISTRY)).toBe(jsonl(entry({ id: 'f-1' })));
  });
  it('invalid JSON: exit 1 with line and column', async () => {
    const repo = makeRepo();
    const r = await runFindings(['add', '--root', repo.root], { cwd: repo.root, stdin: '{\n  "id": "a",\n  "x" 1\n}' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/<stdin>:3:7 {2}error {2}invalid JSON/);
    expect(repo.exists(REGISTRY)).toBe(false);
  });
  it('empty input: exit 1', async () => {
    const repo = makeRepo();
    expect((await runFindings(['add', '--root', repo.root], { cwd: repo.root, stdin: '[]' })).code).toBe(1);
  });
  it('an unreadable --file, or both --file and "-": exit 2', async () => {
    const repo = makeRepo();
    expect((await runFindings(['add', '--root', repo.root, '--file', 'nope.json'], { cwd: repo.root })).code).toBe(2);
    expect((await runFindings(['add', '-', '--root', repo.root, '--file', MINIMAL], { cwd: repo.root })).code).toBe(2);
  });
  it('never writes a line validate rejects: self-supersede, directly or via a dedup_key merge (exit 1)', async () => {
    const repo = makeRepo();
    const self = await runFindings(['add', '--root', repo.root], {
      cwd: repo.root,
      stdin: JSON.stringify(entry({ id: 'f-x', status: 'superseded', superseded_by: 'f-x' })),
    });
    expect([self.code, repo.exists(REGISTRY)]).toEqual([1, false]);
    expect(self.stdout).toContain('names the entry itself');
    const original = jsonl(entry({ id: 'f-y' }));
    repo.write(REGISTRY, original);
    const merged = await runFindings(['add', '--root', repo.root], {
      cwd: repo.root,
      stdin: JSON.stringify(entry({ id: 'f-z', status: 'superseded', superseded_by: 'f-y' })),
    });
    expect(merged.code).toBe(1);
    expect(repo.read(REGISTRY)).toBe(original);
    expect((await runFindings(['validate', '--root', repo.root], { cwd: repo.root })).code).toBe(0);
  });
  it('a registry that cannot be read (a directory): exit 2, no lock left', async () => {
    const repo = makeRepo();
    mkdirSync(path.join(repo.root, REGISTRY), { recursive: true });
    const r = await runFindings(['add', '--root', repo.root, '--file', MINIMAL], { cwd: repo.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('EISDIR');
    expect(repo.exists('.agents/findings/registry.lock')).toBe(false);
  });
});

describe('stale temp files of a killed writer', () => {
  it('findings add removes registry.jsonl.<digits> under the lock, and nothing else', async () => {
    const dir = '.agents/findings';
    const stale = [`${dir}/registry.jsonl.123456789`, `${dir}/registry.jsonl.0`];
    const kept = [
      `${dir}/registry.jsonl.bak`,
      `${dir}/registry.jsonl.12a`,
      `${dir}/registry.jsonl.`,
      `${dir}/registry.jsonl.123.tmp`,
      `${dir}/candidates.jsonl.123`,
      `${dir}/xregistry.jsonl.123`,
    ];
    const repo = makeRepo(Object.fromEntries([...stale, ...kept].map((f) => [f, `${line(entry({ id: 'f-partial' }))}\n{"id":"f-tr`])));
    const r = await runFindings(['add', '--root', repo.root, '--file', MINIMAL], { cwd: repo.root });
    expect(r.code).toBe(0);
    expect(stale.filter((f) => repo.exists(f))).toEqual([]);
    expect(kept.filter((f) => !repo.exists(f))).toEqual([]);
    expect(readdirSync(path.join(repo.root, dir)).sort()).toEqual(['registry.jsonl', ...kept.map((f) => path.basename(f))].sort());
  });
});

describe('an unreadable registry', () => {
  const MINIMAL_ADD = ['add', '--file', MINIMAL];
  it.each([
    ['a registry.jsonl directory', (root: string) => mkdirSync(path.join(root, REGISTRY), { recursive: true }), 'EISDIR'],
    [
      'a file where .agents/findings should be',
      (root: string) => {
        mkdirSync(path.join(root, '.agents'), { recursive: true });
        writeFileSync(path.join(root, '.agents/findings'), 'x');
      },
      'ENOTDIR',
    ],
  ])('%s: add, cite and retire exit 2 naming the registry path; rank warns once', async (_name, setUp, code) => {
    const repo = makeRepo();
    setUp(repo.root);
    for (const args of [MINIMAL_ADD, ['cite', 'f-1'], ['retire', 'f-1']]) {
      const r = await runFindings([...args, '--root', repo.root], { cwd: repo.root });
      expect([args[0], r.code]).toEqual([args[0], 2]);
      expect(r.stderr).toContain(`${REGISTRY}: cannot read the registry (${code}`);
      expect(r.stderr).not.toContain('internal error');
    }
    const rank = await runFindings(['rank', '--root', repo.root, '--json'], { cwd: repo.root });
    expect([rank.code, rank.stdout]).toEqual([0, '[]\n']);
    expect(rank.stderr.match(/registry\/unreadable/g)).toHaveLength(1);
    expect(rank.stderr).toContain(REGISTRY);
  });
});

describe('findings cite and retire', () => {
  const registry = jsonl(entry({ id: 'f-1' }), entry({ id: 'f-2', pattern: 'Other' }));
  it('cite sets hit_count and last_cited from FINDINGS_NOW', async () => {
    const repo = makeRepo({ [REGISTRY]: registry });
    const r = await runFindings(['cite', 'f-1', 'f-2', '--root', repo.root], {
      cwd: repo.root,
      env: { FINDINGS_NOW: '2026-07-01T08:00:00Z' },
    });
    expect(r.code).toBe(0);
    expect(repo.read(REGISTRY)).toBe(
      jsonl(
        entry({ id: 'f-1', hit_count: 1, last_cited: '2026-07-01T08:00:00Z' }),
        entry({ id: 'f-2', pattern: 'Other', hit_count: 1, last_cited: '2026-07-01T08:00:00Z' }),
      ),
    );
  });
  it('cite with an unknown id: exit 1, nothing written', async () => {
    const repo = makeRepo({ [REGISTRY]: registry });
    const r = await runFindings(['cite', 'f-1', 'f-9', '--root', repo.root], { cwd: repo.root });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('unknown finding id "f-9"');
    expect(repo.read(REGISTRY)).toBe(registry);
  });
  it('cite without ids is bad usage', async () => {
    const repo = makeRepo({ [REGISTRY]: registry });
    expect((await runFindings(['cite', '--root', repo.root], { cwd: repo.root })).code).toBe(2);
  });
  it('retire and supersede', async () => {
    const repo = makeRepo({ [REGISTRY]: registry });
    expect((await runFindings(['retire', 'f-1', '--superseded-by', 'f-7', '--root', repo.root], { cwd: repo.root })).code).toBe(1);
    const self = await runFindings(['retire', 'f-1', '--superseded-by', 'f-1', '--root', repo.root], { cwd: repo.root });
    expect([self.code, self.stdout.includes('names the entry itself')]).toEqual([1, true]);
    expect(repo.read(REGISTRY)).toBe(registry);
    expect((await runFindings(['retire', 'f-1', '--superseded-by', 'f-2', '--root', repo.root], { cwd: repo.root })).code).toBe(0);
    expect((await runFindings(['retire', 'f-2', '--root', repo.root], { cwd: repo.root })).code).toBe(0);
    expect(repo.read(REGISTRY)).toBe(
      jsonl(entry({ id: 'f-1', status: 'superseded', superseded_by: 'f-2' }), entry({ id: 'f-2', pattern: 'Other', status: 'retired' })),
    );
    expect((await runFindings(['validate', '--root', repo.root], { cwd: repo.root })).code).toBe(0);
  });
});
