/**
 * `constraint measure` in flat memory (docs/lifecycle.md, "Memory"): measuring a history twice as
 * long must not raise the peak resident set by more than 10 %. Not timed. The bin runs in a child
 * Node with a small young generation and a 64 MB old-space cap, so the peak reflects what is held
 * rather than how lazily V8 collected garbage; blobs held as Buffers live outside that cap, so an
 * implementation that keeps every blob (as one cat-file read did) still grows with the history.
 * Two histories: one whose blobs add up (reading them all at once: 119 → 166 MB), one whose log
 * does (60 changed files a commit, none read; holding the parsed log: 78 → 99 MB). The peak is the
 * child's own (peak-rss.mjs reads VmHWM; maxRSS would report the test runner it was forked from).
 */
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, makeRepo } from '../helpers/repo.js';
import { bulkyHistory, wideHistory } from './history.js';

const PEAK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'peak-rss.mjs');
const COMMITS = 1500;
/** 1,500 commits × 16 KB = 24 MB of blobs more in the longer walk: about a third of the process. */
const FILE_BYTES = 16_000;
const WIDE_COMMITS = 1000;
const WIDE_PATHS = 60;

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
    console.log(`constraint measure peak RSS: ${half} KB over ${COMMITS} commits of blobs, ${full} KB over ${2 * COMMITS}`);
    expect(full, `peak ${half} KB over ${COMMITS} commits, ${full} KB over ${2 * COMMITS}`).toBeLessThanOrEqual(half * 1.1);
  }, 300_000);

  it('a log twice as long does not either (the log is streamed, not held)', () => {
    // 2,000 commits × 60 changed files: ≈ 14 MB of `git log --raw` output, ≈ 30 MB as parsed
    // commits if they were all held (blobs are never read: no file is under src/).
    const repo = makeRepo();
    wideHistory(repo, 2 * WIDE_COMMITS, WIDE_PATHS);
    repo.copy(path.join(FIXTURES, 'lifecycle/measure/index.json'), '.agents/constraints/index.json');
    const half = peakKb(repo.root, ['--commits', String(WIDE_COMMITS)]);
    const full = peakKb(repo.root, []);
    console.log(`constraint measure peak RSS: ${half} KB over ${WIDE_COMMITS} wide commits, ${full} KB over ${2 * WIDE_COMMITS}`);
    expect(full, `peak ${half} KB over ${WIDE_COMMITS} commits, ${full} KB over ${2 * WIDE_COMMITS}`).toBeLessThanOrEqual(half * 1.1);
  }, 300_000);
});
