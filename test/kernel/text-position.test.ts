import { describe, expect, it } from 'vitest';
import { jsonKeyLine, lineAt, positionAt } from '../../src/text-position.js';

describe('text positions (src/text-position.ts)', () => {
  const text = 'ab\ncd\n\nef';

  it('lineAt counts the line feeds before an offset', () => {
    expect([0, 2, 3, 5, 6, 7, 8, 9, 100].map((o) => lineAt(text, o))).toEqual([1, 1, 2, 2, 3, 4, 4, 4, 4]);
    expect(lineAt('', 0)).toBe(1);
  });

  it('positionAt gives a 1-based column, the line feed itself ending its line', () => {
    expect(positionAt(text, 0)).toEqual({ line: 1, column: 1 });
    expect(positionAt(text, 2)).toEqual({ line: 1, column: 3 });
    expect(positionAt(text, 3)).toEqual({ line: 2, column: 1 });
    expect(positionAt(text, 8)).toEqual({ line: 4, column: 2 });
  });

  it('agrees with slicing and splitting for every offset', () => {
    for (const sample of ['x\n\ny\r\nzz\nw', '\n\nab\n']) {
      for (let o = 0; o <= sample.length; o += 1) {
        const before = sample.slice(0, o);
        expect(positionAt(sample, o)).toEqual({ line: before.split('\n').length, column: o - before.lastIndexOf('\n') });
      }
    }
  });

  it('jsonKeyLine finds the first `"key": value` in pretty JSON, else the fallback', () => {
    const json = `${JSON.stringify({ sources: [{ url: 'a' }, { url: 'b "q"' }], id: 'c-1' }, null, 2)}\n`;
    expect(jsonKeyLine(json, 'url', 'a')).toBe(4);
    expect(jsonKeyLine(json, 'url', 'b "q"')).toBe(7);
    expect(jsonKeyLine(json, 'id', 'c-1')).toBe(10);
    expect(jsonKeyLine(json, 'id', 'c-2')).toBe(1);
    expect(jsonKeyLine(json, 'id', 'c-2', 0)).toBe(0);
  });
});
