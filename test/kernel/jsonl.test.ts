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
