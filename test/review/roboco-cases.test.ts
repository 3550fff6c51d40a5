/**
 * Review findings as roboco validates them (docs/review.md "Differences from roboco"): the cases
 * are data (test/fixtures/review/roboco/cases.json), run as a table in the style of ESLint's
 * RuleTester: every `valid` case files without an error, every `invalid` case gives exactly the
 * listed errors (rule id + field). `difference` marks a deliberate departure from roboco.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codePoints } from '../../src/review/finding-rules.js';
import { CEO_EXPECTED, ceoFinding, cutWithMarker, planFiling } from '../../src/review/producer.js';
import type { Origin, TaskFile } from '../../src/review/types.js';
import { FIXTURES, makeRepo, runFindings } from '../helpers/repo.js';

const DIR = path.join(FIXTURES, 'review/roboco');
const TASK: TaskFile = { id: 'T-1', criteria: [{ id: 'AC1', text: 'returns 429 over the limit' }] };
const NOW = '2026-03-04T05:06:07Z';

type Producer = 'fail' | 'pr-fail' | 'request-changes' | 'ceo-reject';
interface Case {
  readonly name: string;
  readonly producer: Producer;
  readonly findings?: unknown[];
  readonly issues?: string[];
  readonly reason?: string;
  readonly reasonFile?: string;
  readonly difference?: string;
}
interface InvalidCase extends Case {
  readonly errors: { ruleId: string; field: string }[];
}
const cases = JSON.parse(readFileSync(path.join(DIR, 'cases.json'), 'utf8')) as { valid: Case[]; invalid: InvalidCase[] };
const ORIGIN: Record<Producer, Origin> = { fail: 'qa', 'pr-fail': 'pr_gate', 'request-changes': 'pm', 'ceo-reject': 'ceo' };
const reasonOf = (c: Case): string => c.reason ?? readFileSync(path.join(DIR, c.reasonFile!), 'utf8').replace(/\n$/, '');

/** Files one case as its command would (pure producers), and returns its errors as {ruleId, field}. */
function errorsOf(c: Case): { ruleId: string; field: string }[] {
  let findings: unknown[] | null = c.findings ?? null;
  if (c.producer === 'ceo-reject') {
    const made = ceoFinding(reasonOf(c));
    if ('problem' in made) return [{ ruleId: made.ruleId, field: 'reason' }];
    findings = [made.finding];
  }
  const plan = planFiling({
    task: 'T-1',
    origin: ORIGIN[c.producer],
    taskFile: TASK,
    findings,
    source: 'cases.json',
    elementLines: [],
    issues: c.issues ?? [],
    actor: null,
    at: NOW,
    existing: [],
  });
  return plan.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => ({
      ruleId: d.ruleId,
      field: /^findings\[\d+\]\.([^:]+):/.exec(d.message)?.[1] ?? (/^--issue\[/.test(d.message) ? 'issue' : '(call)'),
    }));
}

describe('roboco cases', () => {
  it.each(cases.valid.map((c) => [c.name, c] as const))('valid: %s', (_, c) => {
    expect(errorsOf(c)).toEqual([]);
  });
  it.each(cases.invalid.map((c) => [c.name, c] as const))('invalid: %s', (_, c) => {
    expect(errorsOf(c)).toEqual(c.errors);
  });
});

describe('a CEO reason over 300 code points', () => {
  it('is kept whole in evidence; actual is cut to 300 code points ending in …[N chars omitted]', () => {
    const reason = reasonOf({ name: '', producer: 'ceo-reject', reasonFile: 'ceo-reason-450.txt' });
    const made = ceoFinding(reason);
    expect(made).toHaveProperty('finding');
    const f = (made as { finding: { severity: string; expected: string; actual: string; evidence: string } }).finding;
    expect(f).toMatchObject({ severity: 'blocker', expected: CEO_EXPECTED, evidence: reason });
    expect(codePoints(f.actual)).toBe(300);
    const m = /^([\s\S]*)…\[(\d+) chars omitted\]$/u.exec(f.actual)!;
    expect(reason.startsWith(m[1]!)).toBe(true);
    expect(codePoints(m[1]!) + Number(m[2])).toBe(450);
  });

  it('cutWithMarker counts code points and stays at 300 whatever the number of digits in N', () => {
    expect(cutWithMarker('short', 300)).toBe('short');
    const emoji = '😀'.repeat(400);
    const cut = cutWithMarker(emoji, 300);
    expect(codePoints(cut)).toBe(300);
    expect(cut.endsWith(`…[${400 - (300 - codePoints('…[118 chars omitted]'))} chars omitted]`)).toBe(true);
    for (const n of [301, 309, 310, 311, 319, 320, 1300, 2000]) expect(codePoints(cutWithMarker('x'.repeat(n), 300)), String(n)).toBe(300);
  });

  it('through `findings review ceo-reject`: filed, with the whole reason as evidence', async () => {
    const r = makeRepo();
    r.copy('review/repo');
    r.commitAll('init');
    r.git('config', 'user.email', 'ceo@example.com');
    const reason = readFileSync(path.join(DIR, 'ceo-reason-450.txt'), 'utf8').trim();
    const res = await runFindings(['review', 'ceo-reject', 'T-1', '--reason', reason], { cwd: r.root, env: { FINDINGS_NOW: NOW } });
    expect(res.code).toBe(0);
    const filed = JSON.parse(r.read('.agents/reviews/T-1.jsonl').trim()) as { finding: { actual: string; evidence: string } };
    expect(filed.finding.evidence).toBe(reason);
    expect(filed.finding.actual).toMatch(/…\[170 chars omitted\]$/u);
    expect((await runFindings(['validate', '--root', r.root], { cwd: r.root })).code).toBe(0);
  });
});
