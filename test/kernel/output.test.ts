import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../src/diagnostics.js';
import { formatJson } from '../../src/output/json.js';
import { plain } from '../../src/output/paint.js';
import { formatStylish } from '../../src/output/stylish.js';
import { paintFor } from '../../src/output/paint.js';

const list = [
  diagnostic({ file: 'b.ts', line: 2, column: 1, severity: 'warning', ruleId: 'r/two', message: 'second' }),
  diagnostic({ file: 'a.ts', line: 10, column: 3, ruleId: 'r/one', message: 'first', notes: ['do this'] }),
];

describe('output formats', () => {
  it('stylish sorts by file and prints a summary', () => {
    expect(formatStylish(list, plain)).toBe(
      'a.ts:10:3  error  first  r/one\n    do this\nb.ts:2:1  warning  second  r/two\n\n✖ 2 problems (1 error, 1 warning)\n',
    );
    expect(formatStylish([], plain)).toBe('');
  });
  it('json is the documented stable array', () => {
    expect(JSON.parse(formatJson(list))).toEqual([
      { file: 'a.ts', line: 10, column: 3, severity: 'error', ruleId: 'r/one', message: 'first', notes: ['do this'] },
      { file: 'b.ts', line: 2, column: 1, severity: 'warning', ruleId: 'r/two', message: 'second' },
    ]);
  });
  it('colours only on a TTY and never with NO_COLOR', () => {
    expect(paintFor(false, {})).toBe(plain);
    expect(paintFor(true, { NO_COLOR: '1' })).toBe(plain);
    expect(paintFor(true, {})).not.toBe(plain);
  });
});
