/**
 * The required-literal screen on the measure path (docs/lifecycle.md "Speed"): a blob lacking the
 * literals every match of a constraint needs gets the verdict of a text with no match, without a
 * search. Screened and unscreened replays of the same history must give identical results.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { HistoryCommit } from '../../src/git/history.js';
import { BatchBlobs, BlobScreen, DistinctReplay, prepare } from '../../src/lifecycle/replay.js';
import { compileDetector, type Matcher } from '../../src/match/detector.js';
import { constraint } from '../hooks/setup.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { generateHistory, replayHistory } from './history.js';

const matcher = (pattern: string, extra: { mode?: 'must_contain'; exclude?: string } = {}): Matcher => {
  const c = compileDetector({ kind: 'regex', pattern, ...extra });
  if (!c.ok) throw new Error(c.problem);
  return c.matcher;
};

describe('BlobScreen', () => {
  it('rules out exactly the matchers whose required literals a text lacks; never a case-folded one', () => {
    const log = matcher('console\\.log\\(');
    const either = matcher('(?:alpha|beta)Gamma');
    const folded = matcher('(?i)console');
    const screen = new BlobScreen([log, either, folded]);
    expect([...screen.ruledOut('const x = 1;\n')]).toEqual([log, either]);
    expect([...screen.ruledOut('console.log(betaGamma)\n')]).toEqual([]);
    expect([...screen.ruledOut('alphaGamma\n')]).toEqual([log]);
  });

  it('a must_contain blob lacking the literal is one absent violation, as evaluated; a forbid one has none', () => {
    const blobs = new Map([['b1', Buffer.from('nothing here\n')]]);
    for (const [mode, hits] of [
      [undefined, 0],
      ['must_contain', 1],
    ] as const) {
      const entry = constraint('c', { detector: { kind: 'regex', pattern: 'use strict', ...(mode ? { mode } : {}) } });
      const prepared = prepare(entry);
      if (!prepared.ok) throw new Error(prepared.problem);
      const commit: HistoryCommit = {
        sha: 'a'.repeat(40),
        parents: [],
        changes: [{ status: 'A', path: 'x.js', srcMode: '000000', dstMode: '100644', srcSha: '0'.repeat(40), dstSha: 'b1' }],
      };
      const results = [null, new BlobScreen([prepared.matcher])].map((screen) => {
        const r = new DistinctReplay(prepared, { budgetMs: 10_000 });
        r.needed(commit);
        r.add(commit, new BatchBlobs(blobs, screen));
        return r.result(8);
      });
      expect(results[1]).toEqual(results[0]);
      expect(results[0]!.hits).toHaveLength(hits);
    }
  });
});

describe('a screened measure equals an unscreened one', () => {
  let repo: TestRepo;
  beforeAll(() => {
    repo = makeRepo();
    generateHistory(repo, { commits: 150, seed: 11, markers: ['legacyCall', 'oldApi'] });
  });

  it('on a generated history, for forbid, must_contain, exclude, alternation and case-folded constraints', async () => {
    const entries = [
      constraint('log', { pattern: 'console\\.log\\(', globs: ['**/*'] }),
      constraint('either', { pattern: '(?:legacyCall|oldApi)\\(', globs: ['**/*'] }),
      constraint('excl', {
        detector: { kind: 'regex', pattern: 'console\\.\\w+', exclude: 'debug' },
        applies_to: { scope: 'files', path_globs: ['**/*'] },
      }),
      constraint('must', {
        detector: { kind: 'regex', pattern: 'oldApi', mode: 'must_contain' },
        applies_to: { scope: 'files', path_globs: ['**/*'] },
      }),
      constraint('folded', { pattern: '(?i)LEGACYCALL', globs: ['**/*'] }),
      constraint('added', { pattern: 'value\\d', globs: ['**/*'], scope: 'added-lines' }),
    ];
    const run = (screened: boolean) =>
      replayHistory(repo.root, entries, { screen: (replays) => (screened ? new BlobScreen(replays.map((r) => r.matcher)) : null) });
    const plain = await run(false);
    const screened = await run(true);
    expect(plain.some((r) => r.hits.length > 0)).toBe(true);
    expect(screened).toEqual(plain);
  });
});
