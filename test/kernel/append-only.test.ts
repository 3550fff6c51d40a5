import { describe, expect, it } from 'vitest';
import { missingLines } from '../../src/review/append-only.js';

describe('missingLines', () => {
  it('accepts appends, reordering (union merges) and a missing final newline', () => {
    expect(missingLines('a\nb\n', 'a\nb\nc\n')).toEqual([]);
    expect(missingLines('a\nb\n', 'b\nx\na')).toEqual([]);
  });
  it('names the lines that disappeared', () => {
    expect(missingLines('a\nb\nc\n', 'a\nc\n')).toEqual([2]);
    expect(missingLines('a\n\nb\n', '')).toEqual([1, 3]);
  });
});
