/**
 * `constraint measure` in flat memory (docs/lifecycle.md, "Memory"): measuring a history twice as
 * long must not raise the peak resident set by more than 10 %. Not timed. The bin runs in a child
 * Node with a small young generation and a 64 MB old-space cap, so the peak reflects what is held
 * rather than how lazily V8 collected garbage; blobs held as Buffers live outside that cap, so an
 * implementation that keeps every blob (as one cat-file read did) still grows with the history.
 */
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, makeRepo } from '../helpers/repo.js';
import { bulkyHistory } from './history.js';

const PEAK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'peak-rss.mjs');
const COMMITS = 1500;
/** 1,500 commits × 16 KB = 24 MB of blobs more in the longer walk: about a third of the process. */
const FILE_BYTES = 16_000;

function peakKb(root: string, args: string[]): number {
  const r = spawnSync(
    process.execPath,
    ['--max-semi-space-size=1', '--max-old-space-size=64', PEAK, BIN, 'constraint', 'measure', 'f-console', ...args],
    { cwd: root, encoding: 'utf8' },
  );
  expect(r.status, r.stderr).toBe(0);
  return Number(/PEAK_RSS_KB=(\d+)/.exec(r.stderr)![1]);
}

describe('constraint measure memory', () => {
  it('a history twice as long does not raise peak memory by more than 10 %', () => {
    const repo = makeRepo();
    bulkyHistory(repo, 2 * COMMITS, FILE_BYTES);
    repo.copy(path.join(FIXTURES, 'lifecycle/measure/index.json'), '.agents/constraints/index.json');
    const half = peakKb(repo.root, ['--commits', String(COMMITS)]);
    const full = peakKb(repo.root, []);
    expect(full, `peak ${half} KB over ${COMMITS} commits, ${full} KB over ${2 * COMMITS}`).toBeLessThanOrEqual(half * 1.1);
  }, 300_000);
});
