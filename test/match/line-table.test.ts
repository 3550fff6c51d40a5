/** The detector's hit positions come from the one position helper (src/text-position.ts LineTable). */
import { describe, expect, it } from 'vitest';
import { compileDetector, evaluate } from '../../src/match/detector.js';
import { LineTable, positionAt } from '../../src/text-position.js';

describe('LineTable', () => {
  it('agrees with positionAt for every offset, and gives each line without its line feed', () => {
    for (const sample of ['x\n\ny\r\nzz\nw', '\n\nab\n', '', 'one line']) {
      const table = new LineTable(sample);
      for (let o = 0; o <= sample.length; o += 1) expect(table.positionAt(o)).toEqual(positionAt(sample, o));
      expect(sample.split('\n').map((_, i) => table.lineText(i + 1))).toEqual(sample.split('\n'));
    }
  });

  it('places detector hits (start, end line, exclude by line) as before', () => {
    const r = compileDetector({ kind: 'regex', pattern: 'try:\\n\\s*pass|bad', exclude: 'ok-bad' });
    if (!r.ok) throw new Error(r.problem);
    const text = 'a\n  try:\n    pass\nbad ok-bad\nxx bad\n';
    expect(evaluate(r.matcher, text).hits).toEqual([
      { line: 2, endLine: 3, column: 3, match: 'try:\n    pass' },
      { line: 5, endLine: 5, column: 4, match: 'bad' },
    ]);
  });
});
