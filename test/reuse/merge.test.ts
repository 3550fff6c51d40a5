/** The pull merge policy as a table over values (src/reuse/merge.ts). */
import { describe, expect, it } from 'vitest';
import { entryDigest } from '../../src/reuse/digest.js';
import { importedEntry, planPull, type PlanInput } from '../../src/reuse/merge.js';
import type { SourceRecord } from '../../src/reuse/sources-file.js';
import type { RegistryLine } from '../../src/registry/reader.js';
import type { RegistryEntry } from '../../src/types.js';

const entry = (id: string, over: Partial<RegistryEntry> = {}): RegistryEntry => ({
  id,
  version: 1,
  tier: 'local',
  source: { repo: 'org/a', session: 's', file: 'f.md', skill: 'review' },
  date: '2026-01-01',
  severity: 'major',
  category: 'test-gap',
  pattern: `pattern ${id}`,
  detection_question: 'q?',
  checklist_item: 'do it',
  applicable_languages: [],
  applicable_when: ['test-gap'],
  status: 'active',
  superseded_by: null,
  dedup_key: `test-gap|pattern-${id}|test-gap`,
  hit_count: 0,
  last_cited: null,
  ttl_days: 30,
  confidence: 'high',
  ...over,
});
const lines = (...entries: RegistryEntry[]): RegistryLine[] =>
  entries.map((e, i) => ({ line: i + 1, entry: e, raw: { line: i + 1, text: '', eol: '\n' } }));
const record = (...entries: RegistryEntry[]): SourceRecord => ({
  url: '../a',
  ref: 'HEAD',
  commit: 'a'.repeat(40),
  tier: 'pulled',
  entries: entries.map((e) => ({ id: e.id, digest: entryDigest(e) })),
  files: [],
});
const input = (over: Partial<PlanInput>): PlanInput => ({
  registry: [],
  incoming: [],
  record: undefined,
  ownedElsewhere: new Set(),
  tier: 'pulled',
  sourceFile: '../a/.agents/findings/registry.jsonl',
  ...over,
});

describe('planPull', () => {
  it('appends active source entries with the chosen tier and the origin provenance; skips inactive ones', () => {
    const plan = planPull(input({ incoming: [entry('f-1'), entry('f-2', { status: 'retired' })], tier: 'seed' }));
    expect(plan.ops).toEqual([{ kind: 'append', entry: { ...entry('f-1'), tier: 'seed' } }]);
    expect(plan.added).toEqual(['f-1']);
    expect(plan.entries.map((e) => e.id)).toEqual(['f-1']);
  });

  it('a local entry with the same dedup_key keeps its wording and lifecycle', () => {
    const local = entry('f-b', { dedup_key: entry('f-1').dedup_key, checklist_item: 'mine', status: 'retired' });
    const plan = planPull(input({ registry: lines(local), incoming: [entry('f-1', { checklist_item: 'theirs' })] }));
    expect(plan.ops).toEqual([]);
    expect(plan.keptLocal).toEqual(['f-b']);
    expect(plan.entries).toEqual([]);
  });

  it('updates an entry this source owns, keeping the id and citation telemetry here', () => {
    const mine = importedEntry(entry('f-1'), 'pulled');
    const cited = { ...mine, hit_count: 5, last_cited: '2026-03-01T00:00:00Z' };
    const plan = planPull(
      input({
        registry: lines(cited),
        record: record(mine),
        incoming: [entry('f-1', { checklist_item: 'new wording', hit_count: 1, last_cited: '2026-02-01T00:00:00Z' })],
      }),
    );
    expect(plan.updated).toEqual(['f-1']);
    expect(plan.ops).toEqual([
      { kind: 'replace', line: 1, entry: { ...mine, checklist_item: 'new wording', hit_count: 5, last_cited: '2026-03-01T00:00:00Z' } },
    ]);
  });

  it('an owned entry edited here (digest differs) is kept, and stays recognised as edited', () => {
    const mine = importedEntry(entry('f-1'), 'pulled');
    const edited = { ...mine, pattern: 'edited here' };
    const plan = planPull(input({ registry: lines(edited), record: record(mine), incoming: [entry('f-1', { checklist_item: 'new' })] }));
    expect(plan.ops).toEqual([]);
    expect(plan.keptLocal).toEqual(['f-1']);
    expect(plan.entries).toEqual([{ id: 'f-1', digest: entryDigest(mine) }]);
  });

  it('citing an owned entry here is not an edit', () => {
    const mine = importedEntry(entry('f-1'), 'pulled');
    const plan = planPull(
      input({ registry: lines({ ...mine, hit_count: 3 }), record: record(mine), incoming: [entry('f-1', { pattern: 'new' })] }),
    );
    expect(plan.updated).toEqual(['f-1']);
  });

  it('retires owned entries the source retired or dropped; supersedes when the replacement exists here', () => {
    const one = importedEntry(entry('f-1'), 'pulled');
    const two = importedEntry(entry('f-2'), 'pulled');
    const three = importedEntry(entry('f-3'), 'pulled');
    const plan = planPull(
      input({
        registry: lines(one, two, three),
        record: record(one, two, three),
        incoming: [entry('f-1', { status: 'superseded', superseded_by: 'f-3' }), entry('f-3')],
      }),
    );
    expect(plan.retired).toEqual(['f-1', 'f-2']);
    expect(plan.ops).toContainEqual({ kind: 'replace', line: 1, entry: { ...one, status: 'superseded', superseded_by: 'f-3' } });
    expect(plan.ops).toContainEqual({ kind: 'replace', line: 2, entry: { ...two, status: 'retired', superseded_by: null } });
    expect(plan.unchanged).toEqual(['f-3']);
  });

  it('does not retire what a local entry took over, nor what was edited here; forgets what was deleted here', () => {
    const one = importedEntry(entry('f-1'), 'pulled');
    const two = importedEntry(entry('f-2'), 'pulled');
    const gone = importedEntry(entry('f-9'), 'pulled');
    const plan = planPull(
      input({ registry: lines({ ...one, tier: 'local' }, { ...two, pattern: 'edited' }), record: record(one, two, gone), incoming: [] }),
    );
    expect(plan.ops).toEqual([]);
    expect(plan.keptLocal).toEqual(['f-2']);
    expect(plan.entries.map((e) => e.id)).toEqual(['f-2']);
  });

  it('leaves entries another source owns, and reports an id used here for another finding', () => {
    const other = importedEntry(entry('f-1'), 'pulled');
    const plan = planPull(
      input({
        registry: lines(other, entry('f-2', { dedup_key: 'x|y|test-gap' })),
        ownedElsewhere: new Set(['f-1']),
        incoming: [entry('f-1', { pattern: 'new' }), entry('f-2')],
      }),
    );
    expect(plan.ops).toEqual([]);
    expect(plan.diagnostics.map((d) => d.ruleId)).toEqual(['pull/kept-existing', 'pull/id-conflict']);
  });

  it('refuses unsafe ids and duplicate dedup keys inside the source', () => {
    const plan = planPull(input({ incoming: [entry('../evil'), entry('f-1'), entry('f-1b', { dedup_key: entry('f-1').dedup_key })] }));
    expect(plan.added).toEqual(['f-1']);
    expect(plan.diagnostics.map((d) => d.ruleId)).toEqual(['pull/unsafe-id', 'pull/duplicate-in-source']);
  });

  it('a second pull of the same content plans nothing (same digests)', () => {
    const first = planPull(input({ incoming: [entry('f-1'), entry('f-2')] }));
    const written = first.ops.map((o) => o.entry);
    const second = planPull(
      input({ registry: lines(...written), record: { ...record(), entries: first.entries }, incoming: [entry('f-1'), entry('f-2')] }),
    );
    expect(second.ops).toEqual([]);
    expect(second.unchanged).toEqual(['f-1', 'f-2']);
    expect(second.entries).toEqual(first.entries);
  });
});
