import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRegistry } from '../../src/registry/reader.js';
import { validateRegistryText } from '../../src/registry/validate.js';
import { addEntries, citeEntries, fillEntry, mergeEntry, retireEntries, updateRegistry } from '../../src/registry/writer.js';
import type { RegistryEntry } from '../../src/types.js';
import { FIXTURES, tempDir } from '../helpers/repo.js';
import { contractExample, entry, fixture, jsonl, line, REGISTRY } from './entries.js';

function repoWith(text?: string): { root: string; text: () => string } {
  const root = tempDir('findings-writer-');
  if (text !== undefined) {
    mkdirSync(path.join(root, '.agents/findings'), { recursive: true });
    writeFileSync(path.join(root, REGISTRY), text);
  }
  return { root, text: () => readFileSync(path.join(root, REGISTRY), 'utf8') };
}

describe('fillEntry', () => {
  it('fills version, dedup_key, hit_count, last_cited, superseded_by and nothing else', () => {
    const input = JSON.parse(fixture('minimal-input.json')) as Record<string, unknown>;
    const filled = fillEntry(input);
    expect(filled).toMatchObject({
      version: 1,
      hit_count: 0,
      last_cited: null,
      superseded_by: null,
      dedup_key: 'test-gap|new-parsers-ship-without-a-malformedinput-test|test-gap',
    });
    expect(Object.keys(filled).length - Object.keys(input).length).toBe(5);
    expect(input['version']).toBeUndefined(); // pure
  });
  it('keeps values the input gives', () => {
    expect(fillEntry({ dedup_key: 'k', hit_count: 3, last_cited: '2026-01-01T00:00:00Z' })).toMatchObject({
      dedup_key: 'k',
      hit_count: 3,
      last_cited: '2026-01-01T00:00:00Z',
    });
  });
});

describe('mergeEntry', () => {
  const old = entry({ id: 'f-old', date: '2026-01-01', hit_count: 4, last_cited: '2026-02-01T00:00:00Z', confidence: 'low' });
  it('keeps id and date, takes newer non-empty wording and explicit lifecycle fields, never loses citations', () => {
    const incoming = entry({
      id: 'f-new',
      date: '2026-05-05',
      checklist_item: 'Sharper checklist',
      detection_question: '',
      status: 'retired',
      ttl_days: 7,
      confidence: 'high',
    });
    const m = mergeEntry(old, incoming);
    expect(m).toMatchObject({
      id: 'f-old',
      date: '2026-01-01',
      checklist_item: 'Sharper checklist',
      detection_question: old.detection_question,
      status: 'retired',
      superseded_by: null,
      ttl_days: 7,
      confidence: 'high',
      hit_count: 4,
      last_cited: '2026-02-01T00:00:00Z',
    });
  });
  it('is idempotent', () => {
    const incoming = entry({ pattern: 'Parsers ship without malformed input tests!' });
    expect(mergeEntry(mergeEntry(old, incoming), incoming)).toEqual(mergeEntry(old, incoming));
  });
});

describe('addEntries', () => {
  it('appends the contract example to a missing registry, then a re-add is a no-op', async () => {
    const repo = repoWith();
    const r = await addEntries(repo.root, [contractExample()]);
    expect(r).toEqual({ diagnostics: [], appended: ['f-2026-03-09-001'], updated: [], unchanged: [] });
    const before = repo.text();
    expect(before).toBe(`${line(contractExample())}\n`);
    const again = await addEntries(repo.root, [contractExample()]);
    expect(again.unchanged).toEqual(['f-2026-03-09-001']);
    expect(repo.text()).toBe(before);
  });
  it('merges a known dedup_key in place, keeping id and date', async () => {
    const repo = repoWith(jsonl(entry({ id: 'f-1' }), entry({ id: 'f-2', pattern: 'Second' })));
    const r = await addEntries(repo.root, [entry({ id: 'f-9', date: '2027-01-01', checklist_item: 'Newer checklist' })]);
    expect(r.updated).toEqual(['f-1']);
    const lines = repo.text().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 'f-1', date: '2026-05-01', checklist_item: 'Newer checklist' });
    expect(lines[1]).toBe(line(entry({ id: 'f-2', pattern: 'Second' })));
    expect(lines).toHaveLength(3);
  });
  it('merges into the active line when retired lines share the key', async () => {
    const repo = repoWith(jsonl(entry({ id: 'f-1', status: 'retired' }), entry({ id: 'f-2' }), entry({ id: 'f-3', status: 'retired' })));
    const r = await addEntries(repo.root, [entry({ id: 'f-x', confidence: 'low' })]);
    expect(r.updated).toEqual(['f-2']);
  });
  it('an invalid entry anywhere in the batch: errors, nothing written', async () => {
    const original = jsonl(entry({ id: 'f-1' }));
    const repo = repoWith(original);
    const r = await addEntries(repo.root, [
      entry({ id: 'f-2', pattern: 'fine' }),
      { ...entry({ id: 'f-3', pattern: 'bad' }), applicable_when: [] },
    ]);
    expect(r.diagnostics.map((d) => [d.severity, d.ruleId])).toEqual([['error', 'registry/schema']]);
    expect(r.diagnostics[0]?.message).toContain('entry 2 (id "f-3")');
    expect(r.appended).toEqual([]);
    expect(repo.text()).toBe(original);
  });
  it('refuses an id already used by another key, and an unsafe id', async () => {
    const original = jsonl(entry({ id: 'f-1' }));
    const repo = repoWith(original);
    const dup = await addEntries(repo.root, [entry({ id: 'f-2', pattern: 'fine' }), entry({ id: 'f-1', pattern: 'different key' })]);
    expect(dup.diagnostics.map((d) => d.ruleId)).toEqual(['registry/duplicate-id']);
    const unsafe = await addEntries(repo.root, [entry({ id: '../../etc/passwd', pattern: 'x' })]);
    expect(unsafe.diagnostics.map((d) => d.ruleId)).toEqual(['registry/unsafe-id']);
    expect(repo.text()).toBe(original);
  });
  it('refuses superseded_by naming no entry', async () => {
    const repo = repoWith();
    const r = await addEntries(repo.root, [entry({ status: 'superseded', superseded_by: 'f-nope' })]);
    expect(r.diagnostics.map((d) => d.ruleId)).toEqual(['registry/superseded-by']);
    expect(existsSync(path.join(repo.root, REGISTRY))).toBe(false);
  });
  it('refuses what validate would reject: a self-supersede, directly or through a merge; nothing written', async () => {
    const self = repoWith();
    const r1 = await addEntries(self.root, [entry({ id: 'f-x', status: 'superseded', superseded_by: 'f-x' })]);
    expect(r1.diagnostics.map((d) => [d.ruleId, d.message])).toEqual([
      ['registry/superseded-by', 'entry 1 (id "f-x"): superseded_by "f-x" names the entry itself'],
    ]);
    expect(existsSync(path.join(self.root, REGISTRY))).toBe(false);

    const original = jsonl(entry({ id: 'f-y' }));
    const merge = repoWith(original);
    const r2 = await addEntries(merge.root, [entry({ id: 'f-z', status: 'superseded', superseded_by: 'f-y' })]);
    expect(r2.diagnostics.map((d) => [d.ruleId, d.message])).toEqual([
      [
        'registry/superseded-by',
        'entry 1 (id "f-z"): merged into "f-y" (same dedup_key), whose superseded_by "f-y" names the entry itself',
      ],
    ]);
    expect(r2.updated).toEqual([]);
    expect(merge.text()).toBe(original);
  });
  it('checks superseded_by on the merged result: a batch id merged away is not a replacement', async () => {
    const original = jsonl(entry({ id: 'f-y' }));
    const repo = repoWith(original);
    // f-w lands in f-y's line (same key), so "f-w" is no id of the registry afterwards.
    const r = await addEntries(repo.root, [
      entry({ id: 'f-a', pattern: 'Other', status: 'superseded', superseded_by: 'f-w' }),
      entry({ id: 'f-w' }),
    ]);
    expect(r.diagnostics.map((d) => d.ruleId)).toEqual(['registry/superseded-by']);
    expect(repo.text()).toBe(original);
    // A replacement appended later in the same batch is fine, and validate agrees.
    const ok = await addEntries(repo.root, [
      entry({ id: 'f-a', pattern: 'Other', status: 'superseded', superseded_by: 'f-b' }),
      entry({ id: 'f-b', pattern: 'Third' }),
    ]);
    expect(ok.diagnostics).toEqual([]);
    expect(validateRegistryText(REGISTRY, repo.text())).toEqual([]);
  });
  it('keeps unparseable lines byte for byte where they stand (the agentops registry)', async () => {
    const original = readFileSync(path.join(FIXTURES, 'agentops/.agents/findings/registry.jsonl'), 'utf8');
    const repo = repoWith(original);
    const r = await addEntries(repo.root, [entry({ id: 'f-new' })]);
    expect(r.appended).toEqual(['f-new']);
    expect(r.diagnostics.map((d) => [d.line, d.ruleId])).toEqual([
      [1, 'registry/kept-line'],
      [15, 'registry/kept-line'],
      [16, 'registry/kept-line'],
    ]);
    expect(repo.text()).toBe(`${original}${line(entry({ id: 'f-new' }))}\n`);
  });
  it('keeps a BOM, CRLF terminators, odd spacing of untouched lines, and a garbage line', async () => {
    const untouched = ` { "pattern": "Second", ${line(entry({ id: 'f-2', pattern: 'Second' }))
      .slice(1)
      .replace('"pattern":"Second",', '')}`;
    const original = `\uFEFF${line(entry({ id: 'f-1' }))}\r\n<<<garbage>>>\r\n${untouched}\r\n`;
    const repo = repoWith(original);
    await addEntries(repo.root, [entry({ id: 'f-1', checklist_item: 'Changed' }), entry({ id: 'f-3', pattern: 'Third' })]);
    const lines = repo.text().split('\r\n');
    expect(lines[0]).toBe(`\uFEFF${line(entry({ id: 'f-1', checklist_item: 'Changed' }))}`);
    expect(lines.slice(1)).toEqual(['<<<garbage>>>', untouched, line(entry({ id: 'f-3', pattern: 'Third' })), '']);
  });
  it('writes only through a temp file in .agents/findings/ and leaves no lock behind', async () => {
    const repo = repoWith();
    await addEntries(repo.root, [entry()]);
    expect(readdirSync(path.join(repo.root, '.agents/findings'))).toEqual(['registry.jsonl']);
  });
});

describe('updateRegistry', () => {
  it('does not write when mutate changes nothing (a file without a final newline stays so)', async () => {
    const original = line(entry());
    const repo = repoWith(original);
    const r = await updateRegistry(repo.root, (doc) => {
      doc.replace(1, { ...doc.entries[0]!.entry });
      return doc.byDedupKey(entry().dedup_key)?.line;
    });
    expect(r).toEqual({ result: 1, changed: false });
    expect(repo.text()).toBe(original);
  });
  it('an exception in mutate writes nothing and releases the lock', async () => {
    const repo = repoWith(jsonl(entry()));
    await expect(
      updateRegistry(repo.root, (doc) => {
        doc.append(entry({ id: 'f-2', pattern: 'x' }));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(repo.text()).toBe(jsonl(entry()));
    expect(existsSync(path.join(repo.root, '.agents/findings/registry.lock'))).toBe(false);
  });
  it('byId and byDedupKey see appended lines', async () => {
    const repo = repoWith();
    await updateRegistry(repo.root, (doc) => {
      doc.append(entry({ id: 'f-1', status: 'retired' }));
      doc.append(entry({ id: 'f-2', status: 'retired' }));
      expect(doc.byDedupKey(entry().dedup_key)?.entry.id).toBe('f-2');
      doc.append(entry({ id: 'f-3' }));
      doc.append(entry({ id: 'f-4', status: 'retired' }));
      expect(doc.byDedupKey(entry().dedup_key)?.entry.id).toBe('f-3');
      expect(doc.byId('f-4')?.line).toBe(4);
    });
  });
});

describe('citeEntries and retireEntries', () => {
  it('cite increments hit_count once per distinct id and sets last_cited in UTC', async () => {
    const repo = repoWith(jsonl(entry({ id: 'f-1' }), entry({ id: 'f-2', pattern: 'y', hit_count: 2 })));
    const r = await citeEntries(repo.root, ['f-2', 'f-1', 'f-2'], new Date('2026-06-01T12:00:00.123+02:00'));
    expect(r.diagnostics).toEqual([]);
    const got = parseRegistry(repo.text()).entries.map((e) => [e.entry.id, e.entry.hit_count, e.entry.last_cited]);
    expect(got).toEqual([
      ['f-1', 1, '2026-06-01T10:00:00Z'],
      ['f-2', 3, '2026-06-01T10:00:00Z'],
    ]);
  });
  it('cite with an unknown id: an error naming it, nothing written', async () => {
    const original = jsonl(entry({ id: 'f-1' }));
    const repo = repoWith(original);
    const r = await citeEntries(repo.root, ['f-1', 'f-ghost'], new Date());
    expect(r.diagnostics.map((d) => [d.ruleId, d.message])).toEqual([['registry/unknown-id', 'unknown finding id "f-ghost"']]);
    expect(repo.text()).toBe(original);
  });
  it('retire sets retired; supersede needs an existing replacement', async () => {
    const repo = repoWith(jsonl(entry({ id: 'f-1' }), entry({ id: 'f-2', pattern: 'y' })));
    expect((await retireEntries(repo.root, [{ id: 'f-1', supersededBy: 'f-nope' }])).diagnostics.map((d) => d.ruleId)).toEqual([
      'registry/superseded-by',
    ]);
    expect((await retireEntries(repo.root, [{ id: 'f-ghost' }])).diagnostics.map((d) => d.ruleId)).toEqual(['registry/unknown-id']);
    expect((await retireEntries(repo.root, [{ id: 'f-1', supersededBy: 'f-1' }])).diagnostics.map((d) => d.ruleId)).toEqual([
      'registry/superseded-by',
    ]);
    expect(repo.text()).toBe(jsonl(entry({ id: 'f-1' }), entry({ id: 'f-2', pattern: 'y' })));
    expect((await retireEntries(repo.root, [{ id: 'f-1', supersededBy: 'f-2' }, { id: 'f-2' }])).diagnostics).toEqual([]);
    expect(parseRegistry(repo.text()).entries.map((e) => [e.entry.status, e.entry.superseded_by])).toEqual([
      ['superseded', 'f-2'],
      ['retired', null],
    ]);
  });
});

describe('property: any sequence of adds', () => {
  const PATTERNS = ['Alpha beta', 'alpha, beta!', 'Gamma', 'Delta  epsilon', 'delta epsilon'];
  const arbEntry = fc.record({
    n: fc.integer({ min: 0, max: 30 }),
    pattern: fc.constantFrom(...PATTERNS),
    category: fc.constantFrom('test-gap', 'docs-drift'),
    when: fc.constantFrom<RegistryEntry['applicable_when']>(['test-gap'], ['docs-drift', 'test-gap'], ['plan-shape']),
    checklist: fc.constantFrom('Do A.', 'Do B.'),
    severity: fc.constantFrom('high', 'low'),
    status: fc.constantFrom<'active' | 'retired'>('active', 'active', 'retired'),
  });
  it('leaves exactly one line per dedup_key, and re-adding the same sequence is a byte-for-byte no-op', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbEntry, { minLength: 1, maxLength: 12 }), async (specs) => {
        const repo = repoWith();
        // Distinct ids per key, so an id never collides with a different key.
        const inputs = specs.map((s) => {
          const { id: _id, ...rest } = entry({
            pattern: s.pattern,
            category: s.category,
            applicable_when: s.when,
            checklist_item: s.checklist,
            severity: s.severity,
            status: s.status,
          });
          const filled = fillEntry(rest) as unknown as RegistryEntry;
          return { ...filled, id: `f-${Buffer.from(filled.dedup_key).toString('hex')}-${s.n}` };
        });
        for (const input of inputs) {
          const r = await addEntries(repo.root, [input]);
          expect(r.diagnostics).toEqual([]);
        }
        const after = repo.text();
        const keys = parseRegistry(after).entries.map((e) => e.entry.dedup_key);
        expect(new Set(keys).size).toBe(keys.length);
        expect(new Set(keys)).toEqual(new Set(inputs.map((i) => i.dedup_key)));
        for (const input of inputs) await addEntries(repo.root, [input]);
        // Once more, as one batch.
        await addEntries(repo.root, inputs);
        expect(repo.text()).toBe(after);
        const last = inputs[inputs.length - 1]!;
        expect((await addEntries(repo.root, [last])).unchanged).toHaveLength(1);
        expect(repo.text()).toBe(after);
      }),
      { numRuns: 40 },
    );
  });
});
