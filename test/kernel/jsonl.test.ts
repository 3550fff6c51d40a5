import { describe, expect, it } from 'vitest';
import { joinLines, parseJsonl, splitLines } from '../../src/jsonl.js';

describe('splitLines', () => {
  it('keeps each terminator and drops a BOM', () => {
    expect(splitLines('\uFEFFa\r\nb\nc')).toEqual([
      { line: 1, text: 'a', eol: '\r\n' },
      { line: 2, text: 'b', eol: '\n' },
      { line: 3, text: 'c', eol: '' },
    ]);
  });
  it('round-trips through joinLines, adding a final newline', () => {
    expect(joinLines(splitLines('a\r\nb'))).toBe('a\r\nb\n');
  });
});

describe('parseJsonl', () => {
  it('classifies blank, json and invalid lines with line numbers', () => {
    const kinds = parseJsonl('{"a":1}\n\n{oops\n').map((l) => [l.kind, l.raw.line]);
    expect(kinds).toEqual([
      ['json', 1],
      ['blank', 2],
      ['invalid', 3],
    ]);
  });
});

describe('jsonErrorReason', () => {
  it('keeps the reason on one line even when V8 quotes a newline', async () => {
    const { jsonErrorReason } = await import('../../src/jsonl.js');
    let error: unknown;
    try {
      JSON.parse('vm\n');
    } catch (e) {
      error = e;
    }
    expect(jsonErrorReason(error)).not.toMatch(/\n/);
    expect(jsonErrorReason(error)).toMatch(/^invalid JSON: /);
  });
});

describe('parseJsonDocument', () => {
  it('locates the error line and column from the position V8 reports', async () => {
    const { parseJsonDocument } = await import('../../src/jsonl.js');
    expect(parseJsonDocument('{\n  "a": 1,\n}')).toEqual({
      ok: false,
      line: 3,
      column: 1,
      reason: 'invalid JSON: Expected double-quoted property name',
    });
    expect(parseJsonDocument('\uFEFF{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonDocument('')).toMatchObject({ ok: false, line: 1, column: 0 });
  });
});
