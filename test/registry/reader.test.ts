import path from 'node:path';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRegistry } from '../../src/registry/reader.js';
import { worktreeFiles, type RepoFiles } from '../../src/repo-files.js';
import { FIXTURES, makeRepo } from '../helpers/repo.js';
import { entry, jsonl, line, REGISTRY } from './entries.js';

function makeFile(root: string, rel: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), 'x\n');
}

const read = async (files: Record<string, string>) => readRegistry(worktreeFiles(makeRepo(files).root));

describe('readRegistry (fail-open)', () => {
  it('missing registry: no entries, no message', async () => {
    const r = await read({});
    expect([r.exists, r.entries.length, r.warnings]).toEqual([false, 0, []]);
  });
  it.each([
    ['registry.jsonl is a directory (EISDIR)', (root: string) => mkdirSync(path.join(root, REGISTRY), { recursive: true }), 'EISDIR'],
    ['.agents/findings is a file (ENOTDIR)', (root: string) => makeFile(root, '.agents/findings'), 'ENOTDIR'],
  ])('unreadable registry, %s: exactly one registry/unreadable warning naming it', async (_name, setUp, code) => {
    const repo = makeRepo();
    setUp(repo.root);
    const r = await readRegistry(worktreeFiles(repo.root));
    expect(r.entries).toEqual([]);
    expect(r.warnings.map((w) => [w.file, w.severity, w.ruleId])).toEqual([[REGISTRY, 'warning', 'registry/unreadable']]);
    expect(r.warnings[0]?.message).toContain(code);
  });
  it('empty registry: no entries, no message', async () => {
    const r = await read({ [REGISTRY]: '' });
    expect([r.entries.length, r.warnings]).toEqual([0, []]);
  });
  it('malformed line: a warning naming registry.jsonl:<line>, the line skipped', async () => {
    const r = await read({
      [REGISTRY]: jsonl(entry(), '{broken', { ...entry({ id: 'f-3' }), tier: 'nope' }, entry({ id: 'f-4', pattern: 'x' })),
    });
    expect(r.entries.map((e) => [e.line, e.entry.id])).toEqual([
      [1, 'f-2026-05-01-001'],
      [4, 'f-4'],
    ]);
    expect(r.warnings.map((w) => [`${w.file}:${w.line}`, w.severity])).toEqual([
      [`${REGISTRY}:2`, 'warning'],
      [`${REGISTRY}:3`, 'warning'],
    ]);
    expect(r.warnings[0]?.message).toContain('invalid JSON');
    expect(r.warnings[1]?.message).toContain('"tier"');
  });
  it('strips a UTF-8 BOM and accepts CRLF', async () => {
    const r = await read({ [REGISTRY]: `\uFEFF${line(entry())}\r\n${line(entry({ id: 'f-2', pattern: 'y' }))}\r\n` });
    expect(r.warnings).toEqual([]);
    expect(r.entries.map((e) => e.entry.id)).toEqual(['f-2026-05-01-001', 'f-2']);
  });
  it('unreadable file: exactly one warning, no entries', async () => {
    const failing: RepoFiles = {
      label: 'worktree',
      list: async () => [],
      read: async () => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
    };
    const r = await readRegistry(failing);
    expect(r.entries).toEqual([]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ file: REGISTRY, severity: 'warning', ruleId: 'registry/unreadable' });
  });
  it('the agentops registry: one warning for the YAML block, two for the foreign rows, 13 entries', async () => {
    const text = readFileSync(path.join(FIXTURES, 'agentops/.agents/findings/registry.jsonl'), 'utf8');
    const r = await read({ [REGISTRY]: text });
    expect(r.warnings.map((w) => [w.line, w.ruleId])).toEqual([
      [1, 'registry/yaml-block'],
      [15, 'registry/schema'],
      [16, 'registry/schema'],
    ]);
    expect(r.entries.map((e) => e.line)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19]);
  });
});
