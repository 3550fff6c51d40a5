/**
 * Window search on the measure path (docs/lifecycle.md "Speed"): a replay whose pattern has a
 * search plan (src/match/window-search.ts) searches only around its literals, and must give
 * exactly the result of a replay that searches every text whole.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BlobScreen, DistinctReplay, prepare } from '../../src/lifecycle/replay.js';
import type { ConstraintEntry } from '../../src/types.js';
import { constraint } from '../hooks/setup.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { generateHistory, replayHistory } from './history.js';

const entries: ConstraintEntry[] = [
  constraint('log', { pattern: 'console\\.log\\(', globs: ['**/*'] }),
  // Bounded, and its matches may hold a line feed (`\s`): a window around the literal, across lines.
  constraint('spans', { pattern: ';\\s\\s\\sconsole\\b', globs: ['**/*'] }),
  constraint('word', { pattern: '\\blegacyCall\\(\\d', globs: ['**/*'] }),
  // Ends at its window's edge: `\b` there must see the real next character (value12 is no hit).
  constraint('edge', { pattern: 'value\\d\\b', globs: ['**/*'] }),
  // Unbounded but single-line: the literal's line.
  constraint('rest', { pattern: 'oldApi\\(.*\\);', globs: ['**/*'] }),
  constraint('excl', {
    detector: { kind: 'regex', pattern: 'console\\.\\w+', exclude: 'debug' },
    applies_to: { scope: 'files', path_globs: ['**/*'] },
  }),
  constraint('must', {
    detector: { kind: 'regex', pattern: 'oldApi', mode: 'must_contain' },
    applies_to: { scope: 'files', path_globs: ['**/*'] },
  }),
  // No plan (unbounded and may cross lines): searched whole either way.
  constraint('across', { pattern: 'legacyCall[^!]*oldApi', globs: ['**/*'] }),
];

describe('window search in the replay', () => {
  let repo: TestRepo;
  beforeAll(() => {
    repo = makeRepo();
    generateHistory(repo, { commits: 150, seed: 5, markers: ['legacyCall', 'oldApi'] });
  });

  it('searches windows exactly where the pattern has a plan', () => {
    const searches = entries.map((e) => {
      const p = prepare(e);
      if (!p.ok) throw new Error(p.problem);
      return [e.id, new DistinctReplay(p, { budgetMs: 10_000 }).searchesWindows];
    });
    expect(Object.fromEntries(searches)).toEqual({
      log: true,
      spans: true,
      word: true,
      edge: true,
      rest: true,
      excl: true,
      must: true,
      across: false,
    });
  });

  it('gives the result of searching every text whole, on a generated history', async () => {
    const run = (windows: boolean) =>
      replayHistory(repo.root, entries, {
        windows,
        screen: (replays) => new BlobScreen(replays.filter((r) => !r.searchesWindows).map((r) => r.matcher)),
      });
    const whole = await run(false);
    const windowed = await run(true);
    for (const r of whole) expect(r.hits.length).toBeGreaterThan(0);
    expect(windowed).toEqual(whole);
  });
});
