import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classOf, type RecurFinding } from '../../src/recur/classify.js';
import { buildCandidates } from '../../src/recur/candidates.js';
import { draftEntry, guessShape } from '../../src/recur/draft.js';
import { validate } from '../../src/schema.js';
import { FIXTURES, makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';

const ENV = { FINDINGS_NOW: '2026-03-01T10:00:00Z' };
const fixture = (name: string): string => path.join(FIXTURES, 'lifecycle/recur', name);

function finding(over: Partial<RecurFinding>): RecurFinding {
  return {
    id: 'a'.repeat(32),
    task: 'T-1',
    origin: 'qa',
    round: 1,
    severity: 'major',
    file: 'src/api/x.ts',
    criterion: null,
    expected: 'Returns 404 for a missing user',
    actual: 'returns 500',
    fix: null,
    class: null,
    ledgerFile: '.agents/reviews/T-1.jsonl',
    ledgerLine: 1,
    filedAt: '2026-02-01T00:00:00Z',
    ...over,
  };
}

describe('defect classes', () => {
  it('uses an explicit class, else derives <directory>|<expected slug>', () => {
    expect(classOf(finding({ class: 'off-by-one' }))).toEqual({ key: 'off-by-one', derived: false });
    expect(classOf(finding({}))).toEqual({ key: 'src/api|returns-404-for-a-missing-user', derived: true });
    expect(classOf(finding({ file: 'x.ts' })).key).toBe('.|returns-404-for-a-missing-user');
    expect(classOf(finding({ file: null })).key).toBe('-|returns-404-for-a-missing-user');
  });
  it('derives legacy issues and CEO rejections from the actual text, not their fixed expected text', () => {
    expect(classOf(finding({ file: null, expected: 'issue resolved', actual: 'Flaky test!' })).key).toBe('-|flaky-test');
    expect(classOf(finding({ file: null, origin: 'ceo', expected: 'CEO sign-off on this task', actual: 'No docs' })).key).toBe('-|no-docs');
  });
  it('guesses the work shape from the kind of files', () => {
    expect(guessShape(['test/a.test.ts', 'src/a.ts', 'test/b.ts'])).toBe('test-gap');
    expect(guessShape(['docs/a.md'])).toBe('docs-drift');
    expect(guessShape(['schemas/x.schema.json'])).toBe('struct-change');
    expect(guessShape([])).toBe('validation-gap');
  });
  it('drafts a valid registry line', () => {
    const e = draftEntry('src/api|x', [finding({ fix: 'check the lookup result' }), finding({ task: 'T-2', severity: 'blocker' })]);
    expect(validate('finding-registry', e)).toEqual([]);
    expect(e).toMatchObject({
      severity: 'critical',
      applicable_when: ['validation-gap'],
      applicable_languages: ['typescript'],
      confidence: 'low',
      date: '2026-02-01',
    });
    expect(e.checklist_item).toContain('check the lookup result');
  });
});

describe('candidates', () => {
  const objectives: Record<string, string> = { 'T-1': 'obj-a', 'T-1b': 'obj-a', 'T-2': 'obj-b', 'T-3': 'T-3' };
  const objectiveOf = (t: string): string => objectives[t] ?? t;
  it('gives nothing for repeated rounds of one task or for tasks sharing an objective', () => {
    expect(buildCandidates([finding({}), finding({ id: 'b'.repeat(32), round: 2 })], objectiveOf)).toEqual([]);
    expect(buildCandidates([finding({}), finding({ id: 'b'.repeat(32), task: 'T-1b' })], objectiveOf)).toEqual([]);
  });
  it('gives exactly one advisory candidate per class seen in two or more objectives, one evidence per objective', () => {
    const list = [
      finding({ id: 'c'.repeat(32), round: 2 }),
      finding({ id: 'a'.repeat(32), round: 1 }),
      finding({ id: 'd'.repeat(32), task: 'T-1b', round: 1 }),
      finding({ id: 'e'.repeat(32), task: 'T-2', ledgerFile: '.agents/reviews/T-2.jsonl', ledgerLine: 3 }),
      finding({ id: 'f'.repeat(32), task: 'T-3' }),
      finding({ id: '0'.repeat(32), task: 'T-2', expected: 'something else' }),
    ];
    const cands = buildCandidates(list, objectiveOf);
    expect(cands).toHaveLength(1);
    const c = cands[0]!;
    expect(c).toMatchObject({
      class_key: 'src/api|returns-404-for-a-missing-user',
      derived: true,
      recurrence_count: 3,
      advisory: true,
      draft: true,
    });
    expect(c.evidence.map((e) => [e.objective, e.task, e.finding_id.slice(0, 1), e.round])).toEqual([
      ['T-3', 'T-3', 'f', 1],
      ['obj-a', 'T-1', 'a', 1],
      ['obj-b', 'T-2', 'e', 1],
    ]);
    expect(validate('candidate', JSON.parse(JSON.stringify(c)))).toEqual([]);
    // order of input does not matter
    expect(buildCandidates([...list].reverse(), objectiveOf)).toEqual(cands);
  });
});

describe('findings recur in a real repository', () => {
  async function fail(repo: TestRepo, task: string, file: string): Promise<void> {
    const r = await runFindings(['review', 'fail', task, '--findings', fixture(file)], { cwd: repo.root, env: ENV });
    expect(r.code, r.stderr).toBe(0);
  }
  async function task(repo: TestRepo, id: string, objective?: string): Promise<void> {
    const r = await runFindings(['review', 'task', id, '--criterion', 'works', ...(objective ? ['--objective', objective] : [])], {
      cwd: repo.root,
      env: ENV,
    });
    expect(r.code, r.stderr).toBe(0);
  }

  it('two rounds of one task: nothing; the same defect in a second objective: one candidate; promote adds one registry line', async () => {
    const repo = makeRepo({ 'README.md': 'x\n' });
    repo.commitAll('init');
    await task(repo, 'T-1', 'rate-limiting');
    await task(repo, 'T-2', 'billing');
    await fail(repo, 'T-1', 'rate-limit.json');
    await fail(repo, 'T-1', 'rate-limit.json');
    await fail(repo, 'T-1', 'other.json');
    let r = await runFindings(['recur'], { cwd: repo.root, env: ENV });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('0 advisory candidate(s)');
    expect(repo.exists('.agents/findings/candidates.jsonl')).toBe(false);

    await fail(repo, 'T-2', 'rate-limit.json');
    r = await runFindings(['recur'], { cwd: repo.root, env: ENV });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 advisory candidate(s) → .agents/findings/candidates.jsonl (created)');
    const bytes = repo.read('.agents/findings/candidates.jsonl');
    const lines = bytes.trim().split('\n');
    expect(lines).toHaveLength(1);
    const cand = JSON.parse(lines[0]!);
    expect(cand).toMatchObject({ class_key: 'src/api|429-on-the-101st-request', derived: true, recurrence_count: 2, advisory: true });
    expect(
      cand.evidence.map((e: { objective: string; round: number; ledger_file: string }) => [e.objective, e.round, e.ledger_file]),
    ).toEqual([
      ['billing', 1, '.agents/reviews/T-2.jsonl'],
      ['rate-limiting', 1, '.agents/reviews/T-1.jsonl'],
    ]);
    expect(validate('finding-registry', cand.proposed_entry)).toEqual([]);

    // same ledgers → same bytes; updated, never duplicated
    r = await runFindings(['recur'], { cwd: repo.root, env: { FINDINGS_NOW: '2027-01-01T00:00:00Z' } });
    expect(r.stdout).toContain('(unchanged)');
    expect(repo.read('.agents/findings/candidates.jsonl')).toBe(bytes);

    const json = await runFindings(['recur', '--json'], { cwd: repo.root, env: ENV });
    expect(JSON.parse(json.stdout)).toEqual([cand]);

    const p = await runFindings(['recur', '--promote', cand.class_key], { cwd: repo.root, env: ENV });
    expect(p.code, p.stdout + p.stderr).toBe(0);
    expect(p.stdout).toContain(`appended ${cand.proposed_entry.id}`);
    const registry = repo.read('.agents/findings/registry.jsonl').trim().split('\n');
    expect(registry).toHaveLength(1);
    expect(JSON.parse(registry[0]!).dedup_key).toBe(cand.proposed_entry.dedup_key);
    // promoting again merges by dedup_key: still one line
    const again = await runFindings(['recur', '--promote', cand.class_key], { cwd: repo.root, env: ENV });
    expect(again.code).toBe(0);
    expect(repo.read('.agents/findings/registry.jsonl').trim().split('\n')).toHaveLength(1);

    const unknown = await runFindings(['recur', '--promote', 'nope'], { cwd: repo.root, env: ENV });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('no candidate with class_key "nope" (candidates: src/api|429-on-the-101st-request)');
  });

  it('keeps a person’s edits to the proposed entry, and never rewrites a file with a line it cannot read', async () => {
    const repo = makeRepo({ 'README.md': 'x\n' });
    repo.commitAll('init');
    await fail(repo, 'A', 'rate-limit.json');
    await fail(repo, 'B', 'rate-limit.json');
    await runFindings(['recur'], { cwd: repo.root, env: ENV });
    const cand = JSON.parse(repo.read('.agents/findings/candidates.jsonl'));
    cand.proposed_entry.pattern = 'Rate limits are off by one at the window boundary.';
    const broken = `${JSON.stringify(cand)}\nnot json\n`;
    repo.write('.agents/findings/candidates.jsonl', broken);
    const refused = await runFindings(['recur'], { cwd: repo.root, env: ENV });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('candidates.jsonl:2');
    expect(repo.read('.agents/findings/candidates.jsonl')).toBe(broken);
    expect((await runFindings(['recur', '--promote', cand.class_key], { cwd: repo.root, env: ENV })).code).toBe(1);
    expect(repo.exists('.agents/findings/registry.jsonl')).toBe(false);
    repo.write('.agents/findings/candidates.jsonl', `${JSON.stringify(cand)}\n`);
    const r = await runFindings(['recur'], { cwd: repo.root, env: ENV });
    expect(r.code).toBe(0);
    const lines = repo.read('.agents/findings/candidates.jsonl').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).proposed_entry.pattern).toBe('Rate limits are off by one at the window boundary.');
  });
});
