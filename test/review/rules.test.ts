import { describe, expect, it } from 'vitest';
import { checkFinding, isPlaceholder } from '../../src/review/finding-rules.js';
import { matchId, normalizeIdInput } from '../../src/review/ids.js';
import { planFiling } from '../../src/review/producer.js';
import { renderFinding } from '../../src/review/render.js';
import type { TaskFile } from '../../src/review/types.js';

const TASK: TaskFile = {
  id: 'T-1',
  criteria: [
    { id: 'AC1', text: 'returns 429 over the limit' },
    { id: 'AC2', text: 'logs the client' },
  ],
};
const base = { severity: 'major', expected: 'e', actual: 'got 200' };
const emoji = (n: number): string => '😀'.repeat(n);

describe('finding shape rules', () => {
  const valid: [string, Record<string, unknown>][] = [
    ['minimal', base],
    ['every severity: blocker', { ...base, severity: 'blocker' }],
    ['every severity: minor', { ...base, severity: 'minor' }],
    ['every severity: nit', { ...base, severity: 'nit' }],
    ['expected of 300 astral letters (600 UTF-16 units)', { ...base, expected: '\u{20000}'.repeat(300) }],
    ['actual of 300 code points', { ...base, actual: 'x'.repeat(300) }],
    ['fix of 500 emoji', { ...base, fix: emoji(500) }],
    ['evidence of 2000 emoji', { ...base, evidence: emoji(2000) }],
    ['foo..bar.py', { ...base, file: 'src/foo..bar.py' }],
    ['./a.py', { ...base, file: './a.py' }],
    ['line 1', { ...base, file: 'a.py', line: 1 }],
    ['criterion by id', { ...base, criterion: 'AC2' }],
    ['criterion by exact text', { ...base, criterion: 'returns 429 over the limit' }],
    ['explicit nulls', { ...base, file: null, line: null, fix: null, evidence: null, criterion: null, class: null }],
    ['class slug', { ...base, class: 'off-by-one' }],
  ];
  it.each(valid)('accepts %s', (_name, raw) => {
    expect(checkFinding(raw, TASK, 'T-1')).toHaveProperty('finding');
  });

  const invalid: [string, unknown, string][] = [
    ['not an object', 'text', '(finding)'],
    ['missing severity', { expected: 'e', actual: 'got 200' }, 'severity'],
    ['severity in capitals', { ...base, severity: 'Blocker' }, 'severity'],
    ['unknown severity', { ...base, severity: 'critical' }, 'severity'],
    ['missing expected', { severity: 'nit', actual: 'got 200' }, 'expected'],
    ['missing actual', { severity: 'nit', expected: 'e' }, 'actual'],
    ['blank actual', { ...base, actual: '   ' }, 'actual'],
    ['expected of 301 astral letters', { ...base, expected: '\u{20000}'.repeat(301) }, 'expected'],
    ['actual of 301 code points', { ...base, actual: 'x'.repeat(301) }, 'actual'],
    ['fix of 501', { ...base, fix: emoji(501) }, 'fix'],
    ['evidence of 2001', { ...base, evidence: 'y'.repeat(2001) }, 'evidence'],
    ['a/../b', { ...base, file: 'a/../b' }, 'file'],
    ['leading ..', { ...base, file: '../etc/passwd' }, 'file'],
    ['absolute /x', { ...base, file: '/x' }, 'file'],
    ['C:\\x', { ...base, file: 'C:\\x' }, 'file'],
    ['C:/x', { ...base, file: 'C:/x' }, 'file'],
    ['\\\\server\\share', { ...base, file: '\\\\server\\share' }, 'file'],
    ['backslash', { ...base, file: 'src\\a.py' }, 'file'],
    ['empty file', { ...base, file: '' }, 'file'],
    ['file "."', { ...base, file: '.' }, 'file'],
    ['file not a string', { ...base, file: 3 }, 'file'],
    ['line 0', { ...base, file: 'a.py', line: 0 }, 'line'],
    ['line -1', { ...base, file: 'a.py', line: -1 }, 'line'],
    ['line 1.5', { ...base, file: 'a.py', line: 1.5 }, 'line'],
    ['line as string', { ...base, file: 'a.py', line: '88' }, 'line'],
    ['unknown criterion', { ...base, criterion: 'AC9' }, 'criterion'],
    ['criterion text not exact', { ...base, criterion: 'Returns 429 over the limit' }, 'criterion'],
    ['unknown field', { ...base, severty: 'nit' }, 'severty'],
    ['bad class', { ...base, class: 'Off By One' }, 'class'],
    ['line feed in file', { ...base, file: 'src/a\nb.ts' }, 'file'],
    ['carriage return in file', { ...base, file: 'src/a\rb.ts' }, 'file'],
    ['tab in file', { ...base, file: 'src/a\tb.ts' }, 'file'],
    ['NUL in file', { ...base, file: 'src/a\u0000b.ts' }, 'file'],
    ['U+001F in file', { ...base, file: 'src/a\u001fb.ts' }, 'file'],
    ['DEL in file', { ...base, file: 'src/a\u007fb.ts' }, 'file'],
    ['line feed in criterion', { ...base, criterion: 'AC1\n' }, 'criterion'],
    ['DEL in criterion', { ...base, criterion: 'AC\u007f1' }, 'criterion'],
  ];
  it.each(invalid)('refuses %s, naming the field', (_name, raw, field) => {
    const r = checkFinding(raw, TASK, 'T-1');
    expect(r).toHaveProperty('problems');
    expect('problems' in r && r.problems.map((p) => p.field)).toContain(field);
  });

  it('accepts printable characters next to the control range in file and criterion', () => {
    expect(checkFinding({ ...base, file: 'src/a b}é😀.ts', criterion: 'AC1' }, TASK, 'T-1')).toHaveProperty('finding');
  });
  it('refuses a control character in criterion even when a task criterion text contains it', () => {
    const task: TaskFile = { id: 'T-1', criteria: [{ id: 'AC1', text: 'two\nlines' }] };
    const r = checkFinding({ ...base, criterion: 'two\nlines' }, task, 'T-1');
    expect('problems' in r && r.problems).toEqual([{ field: 'criterion', message: expect.stringContaining('control character (U+000A)') }]);
  });
  it.each([
    ['file', { ...base, file: 'src/a\nb.ts' }, 'findings[1].file: "src/a\\nb.ts" contains a control character (U+000A)'],
    ['criterion', { ...base, criterion: 'AC1\u0007' }, 'findings[1].criterion: "AC1\\u0007" contains a control character (U+0007)'],
  ])('a control character in %s refuses the call, naming the finding index and field', (_field, bad, message) => {
    const p = planFiling({
      task: 'T-1',
      origin: 'qa',
      taskFile: TASK,
      source: 'F.json',
      elementLines: [2, 3],
      issues: [],
      actor: null,
      at: '2026-01-01T00:00:00Z',
      existing: [],
      findings: [base, bad],
    });
    expect(p.events).toEqual([]);
    expect(p.diagnostics).toEqual([
      expect.objectContaining({ line: 3, ruleId: 'review/invalid-finding', message: expect.stringContaining(message) }),
    ]);
  });
  it('lists the valid criterion ids when a criterion matches nothing', () => {
    const r = checkFinding({ ...base, criterion: 'AC9' }, TASK, 'T-1');
    expect('problems' in r && r.problems[0]!.message).toContain('valid ids: AC1, AC2');
  });
  it('refuses a criterion when the task has no task file', () => {
    const r = checkFinding({ ...base, criterion: 'AC1' }, null, 'T-1');
    expect('problems' in r && r.problems[0]!.message).toContain('.agents/tasks/T-1.json');
  });
  it('normalises ./a.py to a.py and a criterion text to its id', () => {
    const r = checkFinding({ ...base, file: './src//a.py', criterion: 'logs the client' }, TASK, 'T-1');
    expect('finding' in r && r.finding).toMatchObject({ file: 'src/a.py', criterion: 'AC2' });
  });
});

describe('count guard and merging (planFiling)', () => {
  const plan = (structured: number, issues: number) =>
    planFiling({
      task: 'T-1',
      origin: 'qa',
      taskFile: TASK,
      findings: structured > 0 ? Array.from({ length: structured }, (_, i) => ({ ...base, actual: `a${i}` })) : null,
      source: 'F.json',
      elementLines: [],
      issues: Array.from({ length: issues }, (_, i) => `issue ${i}`),
      actor: 'qa@x.io',
      at: '2026-01-01T00:00:00Z',
      existing: [],
    });
  it.each([
    [5, 0, 5, false],
    [3, 2, 5, false],
    [6, 0, 6, true],
    [4, 2, 6, true],
    [10, 0, 10, true],
    [7, 3, 10, true],
  ])('%i structured + %i issues: files %i (warning: %s)', (s, i, n, warns) => {
    const p = plan(s, i);
    expect(p.events).toHaveLength(n);
    expect(p.diagnostics.some((d) => d.ruleId === 'review/many-findings' && d.severity === 'warning')).toBe(warns);
  });
  it.each([
    [11, 0],
    [9, 2],
    [0, 11],
  ])('%i structured + %i issues: refused, nothing to write', (s, i) => {
    const p = plan(s, i);
    expect(p.events).toHaveLength(0);
    expect(p.diagnostics.map((d) => d.ruleId)).toContain('review/too-many-findings');
  });
  it('merges legacy issues after the structured findings as file-less majors', () => {
    const p = plan(2, 1);
    expect(p.filed.map((f) => [f.index, f.severity, f.file, f.actual])).toEqual([
      [0, 'major', null, 'a0'],
      [1, 'major', null, 'a1'],
      [2, 'major', null, 'issue 0'],
    ]);
  });
  it('refuses the whole call when one finding is invalid, naming index, field and line', () => {
    const p = planFiling({
      task: 'T-1',
      origin: 'qa',
      taskFile: TASK,
      source: 'F.json',
      elementLines: [2, 3],
      issues: ['docs are missing'],
      actor: null,
      at: '2026-01-01T00:00:00Z',
      existing: [],
      findings: [base, { ...base, line: 0, file: 'a.py' }],
    });
    expect(p.events).toEqual([]);
    expect(p.diagnostics).toEqual([
      expect.objectContaining({
        file: 'F.json',
        line: 3,
        ruleId: 'review/invalid-finding',
        message: expect.stringContaining('findings[1].line'),
      }),
    ]);
  });
  it('round = previous rounds + 1', () => {
    const first = plan(1, 0);
    const second = planFiling({
      task: 'T-1',
      origin: 'pm',
      taskFile: TASK,
      findings: [base],
      source: 'F.json',
      elementLines: [],
      issues: [],
      actor: null,
      at: '2026-01-01T00:00:00Z',
      existing: first.filed,
    });
    expect(second.filed[0]!.round).toBe(2);
  });
  it('gives 32-hex ids whose 8-char prefix is the shown id', () => {
    const f = plan(1, 0).filed[0]!;
    expect(f.id).toMatch(/^[0-9a-f]{32}$/);
    expect(renderFinding(f).startsWith(`[F-${f.id.slice(0, 8)}]`)).toBe(true);
  });
});

describe('renderFinding', () => {
  const f = { shortId: 'a1b2c3d4', severity: 'blocker' as const, expected: 'E', actual: 'A' };
  it.each([
    ['file, line, fix', { file: 'x.py', line: 88, fix: 'F' }, '[F-a1b2c3d4] x.py:88 (blocker) — E → A → F'],
    ['file, line', { file: 'x.py', line: 88, fix: null }, '[F-a1b2c3d4] x.py:88 (blocker) — E → A'],
    ['file, fix', { file: 'x.py', line: null, fix: 'F' }, '[F-a1b2c3d4] x.py (blocker) — E → A → F'],
    ['file only', { file: 'x.py', line: null, fix: null }, '[F-a1b2c3d4] x.py (blocker) — E → A'],
    ['fix only', { file: null, line: null, fix: 'F' }, '[F-a1b2c3d4] — (blocker) — E → A → F'],
    ['nothing optional', { file: null, line: null, fix: null }, '[F-a1b2c3d4] — (blocker) — E → A'],
    ['line without file', { file: null, line: 3, fix: null }, '[F-a1b2c3d4] —:3 (blocker) — E → A'],
    ['line without file, fix', { file: null, line: 3, fix: 'F' }, '[F-a1b2c3d4] —:3 (blocker) — E → A → F'],
  ])('%s', (_name, parts, expected) => {
    expect(renderFinding({ ...f, ...parts })).toBe(expected);
  });
  it("keeps a control character of an older ledger line's file on one line", () => {
    expect(renderFinding({ ...f, file: 'src/a\nb\u007f.ts', line: 2, fix: null })).toBe(
      '[F-a1b2c3d4] src/a\\u000ab\\u007f.ts:2 (blocker) — E → A',
    );
  });
});

describe('id matching', () => {
  const ids = ['a1b2c3d4e5f60718293a4b5c6d7e8f90', 'a1b2c3d4ffff0718293a4b5c6d7e8f90', '0123456789abcdef0123456789abcdef'];
  it.each([
    ['8-char id', '01234567', ids[2]],
    ['longer prefix', 'a1b2c3d4e5', ids[0]],
    ['full id', ids[1], ids[1]],
    ['upper case', '0123456789ABCDEF', ids[2]],
    ['F- form', 'F-01234567', ids[2]],
    ['[F-…] form', '[F-01234567]', ids[2]],
    ['f- lower form', 'f-01234567', ids[2]],
  ])('%s matches', (_name, input, id) => {
    expect(matchId(input!, ids)).toEqual({ kind: 'match', id });
  });
  it('ambiguous prefixes are reported with the candidates', () => {
    expect(matchId('a1b2c3d4', ids)).toEqual({ kind: 'ambiguous', ids: [ids[0], ids[1]] });
  });
  it('unknown and malformed ids are reported', () => {
    expect(matchId('ffffffff', ids)).toEqual({ kind: 'unknown' });
    expect(matchId('0123', ids)).toEqual({ kind: 'invalid' });
    expect(normalizeIdInput('zzzzzzzz')).toBeNull();
  });
});

describe('placeholders', () => {
  it.each(['', '   ', 'wip', 'WIP', 'tbd', 'TODO', 'n/a', 'N/A', 'na', 'none', '-', '...', '…', '?', '??', 'T.B.D.', ' None. ', 'fixme'])(
    '%j is a placeholder',
    (s) => {
      expect(isPlaceholder(s)).toBe(true);
    },
  );
  it.each([
    'pending',
    'Pending.',
    'TODO: later',
    'todo later',
    'fix later',
    'Fix later!',
    'fixlater',
    'later',
    'soon',
    'tbc',
    'TBA',
    'null',
    'nil',
    'xxx',
    'wip for now',
    'tbd - n/a',
    'n / a',
    'None yet',
    'pending, soon',
    'will do',
    'fix me',
    'TODO(later)',
    'later...',
    '  pending  ',
  ])('%j is a placeholder (only placeholder words)', (s) => {
    expect(isPlaceholder(s)).toBe(true);
  });
  it.each([
    'pricing page is wrong',
    'cosmetic, tracked in T-9',
    'no'.concat(' tests for the retry path'),
    'pending legal review of the license',
    'fix later: the retry loop leaks sockets',
    'TODO list in README is out of date',
    'ship it after 2026-04-01',
    'none of the criteria are met',
    'later than agreed: launch is 2026-05',
    'n/a in EU markets: the price is missing',
  ])('%j is a reason', (s) => {
    expect(isPlaceholder(s)).toBe(false);
  });
});
