/**
 * Reading ahead (src/lifecycle/measure.ts): the walk asks every replay which blobs the next batch
 * needs before the previous batch is added, so git reads them meanwhile. A verdict `needed`
 * found cached (and so did not ask for) must still be there when its commit is added, even if
 * the batch in between fills the verdict cache past its limit.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryCommit } from '../../src/git/history.js';
import { BatchBlobs, DistinctReplay, prepare, type ReplayResult } from '../../src/lifecycle/replay.js';
import { constraint } from '../hooks/setup.js';

const sha = (c: string): string => c.repeat(40);
const added = (commit: string, path: string, blob: string): HistoryCommit => ({
  sha: sha(commit),
  parents: [],
  changes: [{ status: 'A', path, srcMode: '000000', dstMode: '100644', srcSha: sha('0'), dstSha: blob }],
});

const SMALL = sha('a');
const HUGE = sha('b');
const blobs = new Map<string, Buffer>([
  [SMALL, Buffer.from('ok\nbad(1)\n')],
  // More violating lines than the verdict cache holds (50,000): caching it evicts older verdicts.
  [HUGE, Buffer.from(Array.from({ length: 50_001 }, (_, i) => `bad(${i + 2})`).join('\n'))],
]);
const commits = [added('1', 'a.js', SMALL), added('2', 'huge.js', HUGE), added('3', 'copy.js', SMALL)];

function replay(): DistinctReplay {
  const p = prepare(constraint('c', { pattern: 'bad\\(\\d+\\)' }));
  if (!p.ok) throw new Error(p.problem);
  return new DistinctReplay(p, { budgetMs: 60_000 });
}

const batchOf = (shas: readonly string[]): BatchBlobs => new BatchBlobs(new Map(shas.map((s) => [s, blobs.get(s)!])));

describe('reading ahead', () => {
  it('gives the result of replaying one batch at a time', () => {
    const inTurn = replay();
    for (const c of commits) {
      const b = batchOf(inTurn.needed(c));
      inTurn.add(c, b);
      inTurn.trim();
    }
    const ahead = replay();
    const first = batchOf(ahead.needed(commits[0]!));
    ahead.add(commits[0]!, first);
    ahead.trim();
    // Both later commits are planned before the first of them is added: copy.js's blob is cached, so not asked for.
    const wanted = [...ahead.needed(commits[1]!), ...ahead.needed(commits[2]!)];
    expect(wanted).toEqual([HUGE]);
    const second = batchOf(wanted);
    ahead.add(commits[1]!, second);
    ahead.trim(); // between batches, as the walk does: over the line limit now
    ahead.add(commits[2]!, second);
    ahead.trim();
    const expected: ReplayResult = inTurn.result(8);
    expect(expected.hits.filter((h) => h.path === 'copy.js')).toHaveLength(1);
    expect(ahead.result(8)).toEqual(expected);
  });
});
