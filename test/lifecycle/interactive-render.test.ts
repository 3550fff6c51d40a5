/** The pure parts of interactive labelling: the hit screen and the key state machine. */
import { describe, expect, it } from 'vitest';
import { renderHit, Session } from '../../src/lifecycle/interactive.js';
import type { MeasuredHit, Verdict } from '../../src/lifecycle/measurement.js';

const hit = (line: number, id = `aaaaaaaa:src/a.js:${line}`): MeasuredHit => ({
  id,
  commit: 'a'.repeat(40),
  path: 'src/a.js',
  line,
  seen: 2,
});

describe('renderHit', () => {
  it('shows 3 lines of context either side, marks the line, highlights the match, and never passes control characters through', () => {
    const text = ['l1', 'l2', 'l3', 'l4', 'x = eval(\x1b]0;owned\x07y)', 'l6', 'l7', 'l8', 'l9', ''].join('\n');
    const out = renderHit(hit(5), text, [[4, 9]], { index: 0, count: 3 });
    expect(out.slice(0, 3)).toEqual([
      'hit 1 of 3: aaaaaaaa:src/a.js:5',
      `  commit ${'a'.repeat(40)}`,
      '  src/a.js line 5 (still there 2 commit(s) later)',
    ]);
    expect(out.slice(4)).toEqual([
      '  2 | l2',
      '  3 | l3',
      '  4 | l4',
      '> 5 | x = \x1b[7meval(\x1b[27m·]0;owned·y)',
      '  6 | l6',
      '  7 | l7',
      '  8 | l8',
    ]);
  });
  it('says so when the file cannot be read at that commit', () => {
    expect(renderHit(hit(1), null, [], { index: 0, count: 1 }).at(-1)).toBe('  (cannot read src/a.js at aaaaaaaaaaaa)');
  });
});

describe('Session', () => {
  it('labels, skips, undoes (restoring the previous verdict and going back) and quits', () => {
    const s = new Session([hit(1), hit(2), hit(3)]);
    const now = new Map<string, Verdict>();
    const v = (id: string): Verdict | undefined => now.get(id);
    expect(s.key('t', v)).toEqual({ kind: 'save', change: { id: hit(1).id, verdict: { label: 'true_positive' } } });
    now.set(hit(1).id, { label: 'true_positive' });
    expect(s.key('s', v)).toEqual({ kind: 'move' });
    expect(s.current()).toEqual(hit(3));
    expect(s.key('u', v)).toEqual({ kind: 'move' });
    expect(s.current()).toEqual(hit(2));
    expect(s.key('u', v)).toEqual({ kind: 'save', change: { id: hit(1).id, verdict: null } });
    expect(s.current()).toEqual(hit(1));
    expect(s.key('u', v)).toEqual({ kind: 'ignored' });
    expect(s.key('x', v)).toEqual({ kind: 'ignored' });
    expect(s.key('f', v).kind).toBe('save');
    expect(s.key('f', v).kind).toBe('save');
    expect(s.key('t', v).kind).toBe('save');
    expect(s.finished).toBe(true);
    expect(s.key('t', v)).toEqual({ kind: 'ignored' });
    expect(s.key('q', v)).toEqual({ kind: 'quit' });
  });
});
