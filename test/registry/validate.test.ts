import path from 'node:path';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assertRegistryReadable, validateRegistryText } from '../../src/registry/validate.js';
import { worktreeFiles } from '../../src/repo-files.js';
import { FIXTURES, makeRepo, runFindings } from '../helpers/repo.js';
import { contractExample, entry, jsonl, line, REGISTRY } from './entries.js';

const AGENTOPS = path.join(FIXTURES, 'agentops/.agents/findings/registry.jsonl');

/** [line, severity, ruleId] triples, the shape every table case asserts. */
const summary = (text: string): [number, string, string][] =>
  validateRegistryText(REGISTRY, text).map((d) => [d.line, d.severity, d.ruleId]);

describe('validateRegistryText: valid input', () => {
  it('accepts the contract example entry with no diagnostics', () => {
    expect(validateRegistryText(REGISTRY, jsonl(contractExample()))).toEqual([]);
  });
  it.each([
    ['empty file', ''],
    ['blank lines only', '\n\n  \n'],
    ['BOM + CRLF', `\uFEFF${line(entry())}\r\n${line(entry({ id: 'f-2', pattern: 'Other pattern' }))}\r\n`],
    ['no final newline', line(entry())],
    ['retired duplicate of an active key', jsonl(entry({ status: 'retired' }), entry({ id: 'f-2' }))],
    ['superseded pointing forward', jsonl(entry({ status: 'superseded', superseded_by: 'f-2' }), entry({ id: 'f-2' }))],
  ])('%s', (_name, text) => {
    expect(summary(text)).toEqual([]);
  });
});

describe('validateRegistryText: one case per rule', () => {
  const cases: [string, string, [number, string, string][]][] = [
    ['invalid JSON', jsonl(entry(), '{"id": "f-2",'), [[2, 'error', 'registry/invalid-json']]],
    ['not an object', jsonl('[1, 2]'), [[1, 'error', 'registry/schema']]],
    ['schema: missing field', jsonl({ ...entry(), severity: undefined }), [[1, 'error', 'registry/schema']]],
    ['schema: bad work shape', jsonl(entry({ applicable_when: ['refactor' as never] })), [[1, 'error', 'registry/schema']]],
    ['schema: version 2', jsonl({ ...entry(), version: 2 }), [[1, 'error', 'registry/schema']]],
    ['duplicate active dedup_key', jsonl(entry(), entry({ id: 'f-2' })), [[2, 'error', 'registry/duplicate-dedup-key']]],
    ['duplicate id', jsonl(entry(), entry({ pattern: 'Another one' })), [[2, 'error', 'registry/duplicate-id']]],
    ['superseded without superseded_by', jsonl(entry({ status: 'superseded' })), [[1, 'error', 'registry/superseded-by']]],
    [
      'superseded_by names nothing',
      jsonl(entry({ status: 'superseded', superseded_by: 'f-missing' })),
      [[1, 'error', 'registry/superseded-by']],
    ],
    [
      'superseded_by names itself',
      jsonl(entry({ status: 'superseded', superseded_by: 'f-2026-05-01-001' })),
      [[1, 'error', 'registry/superseded-by']],
    ],
    [
      'dedup_key category disagrees',
      jsonl(entry({ dedup_key: 'docs-drift|parsers-ship|test-gap' })),
      [[1, 'warning', 'registry/dedup-key-mismatch']],
    ],
    [
      'dedup_key work shape disagrees',
      jsonl(entry({ dedup_key: 'test-gap|parsers-ship|plan-shape' })),
      [[1, 'warning', 'registry/dedup-key-mismatch']],
    ],
    ['dedup_key without three parts', jsonl(entry({ dedup_key: 'just-a-slug' })), [[1, 'warning', 'registry/dedup-key-shape']]],
    ['leading YAML block', `---\na: 1\n---\n${line(entry())}\n`, [[1, 'error', 'registry/yaml-block']]],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(summary(text)).toEqual(expected);
  });

  it('names the field of a schema violation', () => {
    const [d] = validateRegistryText(REGISTRY, jsonl({ ...entry(), severity: undefined, tier: 'remote' }));
    expect(d?.message).toContain('missing required field "severity"');
    expect(d?.message).toContain('field "tier" must be one of');
  });
  it('names the earlier line of a duplicate', () => {
    const text = jsonl(entry(), entry({ id: 'f-2', status: 'retired' }), entry({ id: 'f-3' }));
    const [d] = validateRegistryText(REGISTRY, text);
    expect(d).toMatchObject({ line: 3, ruleId: 'registry/duplicate-dedup-key' });
    expect(d?.message).toContain('line 1');
  });
  it('gives the column of a JSON syntax error when the parser names one', () => {
    const [d] = validateRegistryText(REGISTRY, '{"id": "a" "b"}\n');
    expect(d?.ruleId).toBe('registry/invalid-json');
    expect(d?.column).toBe(12);
  });
});

describe('the agentops registry', () => {
  const text = readFileSync(AGENTOPS, 'utf8');
  it('fails exactly on the YAML block (lines 1-4) and the two rows from another tool (15, 16)', () => {
    const ds = validateRegistryText(REGISTRY, text);
    expect(ds.map((d) => [d.line, d.severity, d.ruleId])).toEqual([
      [1, 'error', 'registry/yaml-block'],
      [15, 'error', 'registry/schema'],
      [16, 'error', 'registry/schema'],
    ]);
    expect(ds[0]?.message).toContain('lines 1-4');
    // Why the two rows fail: no version/tier/source/…, an unknown "provenance", work shapes outside the vocabulary, a numeric confidence.
    for (const d of ds.slice(1)) {
      expect(d.message).toContain('missing required fields "version", "tier", "source"');
      expect(d.message).toContain('unknown field "provenance"');
      expect(d.message).toContain('fields "applicable_when.0", "applicable_when.1" must be one of');
      expect(d.message).toContain('field "confidence" must be string');
    }
  });
  it('every other line (5-14, 17-19) passes', () => {
    const lines = text.split('\n');
    for (const n of [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19]) {
      expect(validateRegistryText(REGISTRY, `${lines[n - 1]}\n`), `line ${n}`).toEqual([]);
    }
  });
  it('`findings validate` exits 1 on it and reports file:line', async () => {
    const repo = makeRepo({ [REGISTRY]: text });
    const r = await runFindings(['validate', '--root', repo.root, '--json'], { cwd: repo.root });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { file: string; line: number; ruleId: string }[];
    expect(out.map((d) => `${d.file}:${d.line} ${d.ruleId}`)).toEqual([
      `${REGISTRY}:1 registry/yaml-block`,
      `${REGISTRY}:15 registry/schema`,
      `${REGISTRY}:16 registry/schema`,
    ]);
  });
});

describe('findings validate on the registry', () => {
  it('exits 0 with warnings only, and validates explicit paths', async () => {
    const repo = makeRepo({
      [REGISTRY]: jsonl(entry({ dedup_key: 'docs-drift|x|test-gap' })),
      'other.jsonl': jsonl(entry(), entry({ pattern: 'Another one' })),
    });
    const r = await runFindings(['validate', '--root', repo.root], { cwd: repo.root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('registry/dedup-key-mismatch');
    const r2 = await runFindings(['validate', '--root', repo.root, 'other.jsonl'], { cwd: repo.root });
    expect(r2.code).toBe(1);
    expect(r2.stdout).toContain('other.jsonl:2:1');
    expect(r2.stdout).toContain('registry/duplicate-id');
  });
});

describe('assertRegistryReadable (validate is strict about an unreadable registry)', () => {
  it('a registry.jsonl directory: UsageError (exit 2) naming the path', async () => {
    const repo = makeRepo();
    mkdirSync(path.join(repo.root, REGISTRY), { recursive: true });
    await expect(assertRegistryReadable(worktreeFiles(repo.root))).rejects.toThrow(
      expect.objectContaining({
        name: 'UsageError',
        message: expect.stringMatching(/^\.agents\/findings\/registry\.jsonl: cannot read the registry \(EISDIR/),
      }),
    );
  });
  it('.agents/findings is a file: UsageError naming the path', async () => {
    const repo = makeRepo();
    mkdirSync(path.join(repo.root, '.agents'), { recursive: true });
    writeFileSync(path.join(repo.root, '.agents/findings'), 'x');
    await expect(assertRegistryReadable(worktreeFiles(repo.root))).rejects.toThrow(
      /\.agents\/findings\/registry\.jsonl: cannot read the registry \(ENOTDIR/,
    );
  });
  it('a missing or a normal registry is fine', async () => {
    await expect(assertRegistryReadable(worktreeFiles(makeRepo().root))).resolves.toBeUndefined();
    await expect(assertRegistryReadable(worktreeFiles(makeRepo({ [REGISTRY]: jsonl(entry()) }).root))).resolves.toBeUndefined();
  });
});
