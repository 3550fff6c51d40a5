/**
 * The registry's pure merge (src/registry/merge.ts): registry text and entries in, the merged
 * text, what happened and diagnostics out. No repository, no lock, no file: the writer
 * (src/registry/writer.ts) only adds those around it.
 */
import { describe, expect, it } from 'vitest';
import { citeInText, mergeAdds, retireInText } from '../../src/registry/merge.js';
import { entry, jsonl, line } from './entries.js';

const a = entry({ id: 'f-a', pattern: 'Parsers ship without malformed input tests' });
const b = entry({ id: 'f-b', pattern: 'Retries hide a failing dependency' });

describe('mergeAdds', () => {
  it('appends new dedup keys to empty text, in input order', () => {
    const r = mergeAdds('', [a, b], 'in.json');
    expect(r.diagnostics).toEqual([]);
    expect(r.appended).toEqual(['f-a', 'f-b']);
    expect(r.changed).toBe(true);
    expect(r.text).toBe(jsonl(a, b));
  });

  it('merges a known dedup key into its line (id and date kept, citations never lost) and leaves other lines as they are', () => {
    const current = `${jsonl(a)} {"odd":  "spacing"}\n${jsonl({ ...b, hit_count: 4 })}`;
    const r = mergeAdds(
      current,
      [{ ...b, id: 'f-b2', date: '2026-06-01', pattern: 'Retries hide a failing dependency', hit_count: 1 }],
      'in',
    );
    expect(r.updated).toEqual([]);
    expect(r.unchanged).toEqual(['f-b']);
    expect(r.changed).toBe(false);
    expect(r.text).toBe(current);
    const reworded = mergeAdds(current, [{ ...b, checklist_item: 'Fail after three retries.' }], 'in');
    expect(reworded.updated).toEqual(['f-b']);
    const lines = reworded.text.split('\n');
    expect(lines[0]).toBe(line(a));
    expect(lines[1]).toBe(' {"odd":  "spacing"}');
    expect(JSON.parse(lines[2]!)).toMatchObject({ id: 'f-b', hit_count: 4, checklist_item: 'Fail after three retries.' });
  });

  it('an error anywhere in the batch: diagnostics, the text unchanged (no entry of the batch lands)', () => {
    const r = mergeAdds(jsonl(a), [b, { ...entry({ id: 'f-a', pattern: 'A different pattern entirely' }) }], 'in.json');
    expect(r.diagnostics.map((d) => d.ruleId)).toEqual(['registry/duplicate-id']);
    expect(r.diagnostics[0]!.message).toMatch(/^entry 2 \(id "f-a"\): id "f-a" is already used by \.agents\/findings\/registry\.jsonl:1/);
    expect([r.appended, r.updated, r.changed, r.text]).toEqual([[], [], false, jsonl(a)]);
  });

  it('checks each input against the schema first, naming it by position', () => {
    const r = mergeAdds('', [a, 'not an object', { ...b, hit_count: 'many' }], '<stdin>');
    expect(r.diagnostics.map((d) => [d.file, d.ruleId, d.message.slice(0, 8)])).toEqual([
      ['<stdin>', 'registry/schema', 'entry 2:'],
      ['<stdin>', 'registry/schema', 'entry 3 '],
    ]);
    expect(r.changed).toBe(false);
  });

  it('keeps CRLF terminators and an unparseable line byte for byte, and says so once', () => {
    const current = `${line(a)}\r\nnot json\r\n`;
    const r = mergeAdds(current, [b], 'in');
    expect(r.text).toBe(`${line(a)}\r\nnot json\r\n${line(b)}\r\n`);
    expect(r.diagnostics.map((d) => [d.line, d.severity, d.ruleId])).toEqual([[2, 'warning', 'registry/kept-line']]);
  });
});

describe('citeInText and retireInText', () => {
  it('cite: hit_count + 1 and last_cited once per distinct id; an unknown id changes nothing', () => {
    const r = citeInText(jsonl(a, b), ['f-b', 'f-b'], '2026-07-01T00:00:00Z');
    expect(r.diagnostics).toEqual([]);
    expect(JSON.parse(r.text.split('\n')[1]!)).toMatchObject({ id: 'f-b', hit_count: 1, last_cited: '2026-07-01T00:00:00Z' });
    const unknown = citeInText(jsonl(a), ['f-a', 'f-x'], '2026-07-01T00:00:00Z');
    expect(unknown.diagnostics.map((d) => d.message)).toEqual(['unknown finding id "f-x"']);
    expect([unknown.changed, unknown.text]).toEqual([false, jsonl(a)]);
  });

  it('a line the merge would write invalid is refused, with the line named (cite on hit_count 1e400)', () => {
    const current = line(a).replace('"hit_count":0', '"hit_count":1e400');
    const r = citeInText(`${current}\n`, ['f-a'], '2026-07-01T00:00:00Z');
    expect(r.refusal).toMatch(
      /^refused to write \.agents\/findings\/registry\.jsonl:1, which would not be a valid registry entry: .*; nothing written$/,
    );
    expect(citeInText(jsonl(a), ['f-a'], '2026-07-01T00:00:00Z').refusal).toBeNull();
  });

  it('retire: retired, or superseded by an existing entry; a missing replacement changes nothing', () => {
    const retired = retireInText(jsonl(a, b), [{ id: 'f-a', supersededBy: 'f-b' }]);
    expect(JSON.parse(retired.text.split('\n')[0]!)).toMatchObject({ status: 'superseded', superseded_by: 'f-b' });
    const missing = retireInText(jsonl(a), [{ id: 'f-a', supersededBy: 'f-zz' }]);
    expect(missing.diagnostics.map((d) => d.ruleId)).toEqual(['registry/superseded-by']);
    expect([missing.changed, missing.text]).toEqual([false, jsonl(a)]);
  });
});
