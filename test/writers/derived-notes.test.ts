/**
 * Derived files after a crash: a review note that does not match its ledger (a run killed between
 * the ledger append and the note rewrite) is reported by `findings validate` and by pre-commit
 * with the fix command, and any later review command of the task repairs it.
 */
import { describe, expect, it } from 'vitest';
import { classifyPath } from '../../src/validate/index.js';
import { makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';
import { commit, gitRun, hookedRepo } from '../hooks/setup.js';

const NOW = '2026-03-04T05:06:07Z';
const NOTE = '.agents/reviews/T-1.md';

const run = (r: TestRepo, args: string[]) => runFindings(args, { cwd: r.root, env: { FINDINGS_NOW: NOW } });

/** A task whose note was left behind by a killed run: the ledger has two findings, the note one. */
async function crashedRepo(r: TestRepo): Promise<{ stale: string }> {
  expect((await run(r, ['review', 'fail', 'T-1', '--issue', 'first'])).code).toBe(0);
  const stale = r.read(NOTE);
  expect((await run(r, ['review', 'fail', 'T-1', '--issue', 'second'])).code).toBe(0);
  r.write(NOTE, stale);
  return { stale };
}

function reviewRepo(): TestRepo {
  const r = makeRepo();
  r.copy('review/repo');
  r.commitAll('init');
  return r;
}

describe('review notes that do not match their ledger', () => {
  it('classifies .agents/reviews/<task>.md as a review note', () => {
    expect(classifyPath('.agents/reviews/T-1.md')).toBe('review-note');
  });

  it('findings validate reports the stale note with the fix command; `review note` clears it', async () => {
    const r = reviewRepo();
    await crashedRepo(r);
    const v = await run(r, ['validate']);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(
      new RegExp(
        String.raw`\.agents/reviews/T-1\.md:1 +error +does not match its ledger \.agents/reviews/T-1\.jsonl ` +
          String.raw`\(2 open findings there\); run ${'`'}findings review note T-1${'`'} +review/stale-note`,
      ),
    );
    expect((await run(r, ['review', 'note', 'T-1'])).stdout).toBe('T-1: note updated\n');
    expect((await run(r, ['validate'])).code).toBe(0);
  });

  it('every review command regenerates the note of its task, even one that then exits 1', async () => {
    const r = reviewRepo();
    const { stale } = await crashedRepo(r);
    const submit = await run(r, ['review', 'submit', 'T-1']);
    expect(submit.code).toBe(1); // two findings are still open
    expect(r.read(NOTE)).not.toBe(stale);
    expect((await run(r, ['validate'])).code).toBe(0);
  });

  it('pre-commit blocks a commit whose staged note does not match the staged ledger', async () => {
    const r = await hookedRepo();
    r.copy('review/repo');
    r.commitAll('tasks');
    await crashedRepo(r);
    gitRun(r, ['add', '.agents/reviews']);
    const c = commit(r, []);
    expect(c.code).toBe(1);
    expect(c.stdout).toContain('review/stale-note');
    expect(c.stdout).toContain('findings review note T-1');
  });
});
