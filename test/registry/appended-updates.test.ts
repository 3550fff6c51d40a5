/**
 * Append-style registry updates (docs/registry.md "Appended updates"): the agentops writers change
 * a finding by appending its whole line again with the same id (e.g. `status: "retired"`). The
 * later line is the newer state in compile, rank and explain; `findings validate` warns about the
 * pair, naming both lines.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalEntries } from '../../compiler/promote.js';
import { parseRegistry } from '../../src/registry/reader.js';
import { rankEntries } from '../../src/registry/rank.js';
import { validateRegistryText } from '../../src/registry/validate.js';
import { explain } from '../../src/reuse/explain/chain.js';
import type { ExplainSources } from '../../src/reuse/explain/load.js';
import { FIXTURES, makeRepo, runFindings } from '../helpers/repo.js';
import { REGISTRY } from './entries.js';

const fixture = (name: string): string => readFileSync(path.join(FIXTURES, 'registry', name), 'utf8');
const RETIRE = fixture('appended-retire.jsonl'); // f-1 active, f-2 active, f-1 retired (line 3)
const SEVERITY = fixture('appended-severity.jsonl'); // f-1 low, f-2 significant, f-1 critical (line 3)

describe('findings validate: an appended update is a warning naming both lines', () => {
  it('reports line 3 as the newer state of line 1, and says findings add would merge them', () => {
    const ds = validateRegistryText(REGISTRY, RETIRE);
    expect(ds.map((d) => [d.line, d.severity, d.ruleId])).toEqual([[3, 'warning', 'registry/appended-update']]);
    expect(ds[0]!.message).toContain('line 3 repeats id "f-1" of line 1');
    expect(ds[0]!.message).toContain('`findings add` would merge them into one line');
  });

  it('an appended active update is not a duplicate active dedup_key', () => {
    expect(validateRegistryText(REGISTRY, SEVERITY).map((d) => d.ruleId)).toEqual(['registry/appended-update']);
  });

  it('an older line of a finding retired by appending no longer holds its dedup_key', () => {
    const [f1, , f1Retired] = RETIRE.trimEnd().split('\n');
    const other = f1!.replace('"id":"f-1"', '"id":"f-9"');
    expect(validateRegistryText(REGISTRY, [f1, f1Retired, other, ''].join('\n')).map((d) => [d.line, d.ruleId])).toEqual([
      [2, 'registry/appended-update'],
    ]);
  });

  it('the same id with another dedup_key is still an error (two findings under one id)', () => {
    const [f1] = RETIRE.split('\n');
    const renamed = f1!.replace('"dedup_key":"test-gap|pattern-f-1|test-gap"', '"dedup_key":"test-gap|pattern-other|test-gap"');
    const ds = validateRegistryText(REGISTRY, `${f1}\n${renamed}\n`);
    expect(ds.map((d) => [d.line, d.severity, d.ruleId])).toEqual([[2, 'error', 'registry/duplicate-id']]);
    expect(ds[0]!.message).toContain('line 1');
  });

  it('through the CLI: exit 0, the warning on line 3', async () => {
    const repo = makeRepo({ [REGISTRY]: RETIRE });
    const r = await runFindings(['validate', '--root', repo.root], { cwd: repo.root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${REGISTRY}:3:1`);
    expect(r.stdout).toContain('registry/appended-update');
  });
});

describe('the later line wins', () => {
  it('rank: a finding retired by an appended line is not ranked; an appended severity is the one ranked', async () => {
    expect(rankEntries(parseRegistry(RETIRE).entries.map((l) => l.entry)).map((r) => r.entry.id)).toEqual(['f-2']);
    const ranked = rankEntries(parseRegistry(SEVERITY).entries.map((l) => l.entry));
    expect(ranked.map((r) => [r.entry.id, r.entry.severity])).toEqual([
      ['f-1', 'critical'],
      ['f-2', 'significant'],
    ]);
    const repo = makeRepo({ [REGISTRY]: RETIRE });
    const r = await runFindings(['rank', '--root', repo.root, '--json'], { cwd: repo.root });
    expect((JSON.parse(r.stdout) as { id: string }[]).map((e) => e.id)).toEqual(['f-2']);
  });

  it('compile: canonicalEntries takes the appended line', () => {
    const { entries } = canonicalEntries(parseRegistry(RETIRE).entries);
    expect(entries.map((l) => [l.entry.id, l.line, l.entry.status])).toEqual([
      ['f-1', 3, 'retired'],
      ['f-2', 2, 'active'],
    ]);
  });

  it('compile: a finding retired by an appended line is not promoted; one promoted before is retired, its rules removed', async () => {
    const [f1, f2] = RETIRE.split('\n');
    const repo = makeRepo({ [REGISTRY]: `${f1}\n${f2}\n` });
    expect((await runFindings(['compile', '--root', repo.root], { cwd: repo.root })).code).toBe(0);
    expect(repo.exists('.agents/planning-rules/f-1.md')).toBe(true);
    repo.write(REGISTRY, RETIRE);
    const r = await runFindings(['compile', '--root', repo.root], { cwd: repo.root });
    expect(r.code).toBe(0);
    expect(repo.read('.agents/findings/f-1.md')).toMatch(/^status: "retired"$/m);
    expect(repo.exists('.agents/planning-rules/f-1.md')).toBe(false);
    expect(repo.exists('.agents/pre-mortem-checks/f-1.md')).toBe(false);

    const fresh = makeRepo({ [REGISTRY]: RETIRE });
    await runFindings(['compile', '--root', fresh.root], { cwd: fresh.root });
    expect(fresh.exists('.agents/findings/f-1.md')).toBe(false);
    expect(fresh.exists('.agents/findings/f-2.md')).toBe(true);
  });

  it('explain: the registry link is the appended line, also when reached through a candidate', async () => {
    const registry = parseRegistry(RETIRE).entries;
    const src: ExplainSources = {
      index: null,
      registry,
      candidates: [
        {
          line: 1,
          class_key: 'pattern-f-1',
          derived: false,
          recurrence_count: 2,
          evidence: [],
          proposed_entry: { id: 'f-1', dedup_key: 'test-gap|pattern-f-1|test-gap' },
        },
      ],
      reviews: [],
      objectives: new Map(),
      sources: null,
      diagnostics: [],
      artifact: async () => null,
      measurement: async () => null,
    };
    expect((await explain(src, 'f-1')).registry).toMatchObject({ id: 'f-1', line: 3, status: 'retired' });
    expect((await explain(src, 'pattern-f-1')).registry).toMatchObject({ id: 'f-1', line: 3, status: 'retired' });
    const repo = makeRepo({ [REGISTRY]: RETIRE });
    const r = await runFindings(['explain', 'f-1', '--root', repo.root, '--format', 'json'], { cwd: repo.root });
    expect((JSON.parse(r.stdout) as { registry: { line: number; status: string } }).registry).toMatchObject({ line: 3, status: 'retired' });
  });
});
