/**
 * The progress line of `constraint measure` (docs/lifecycle.md, "Progress") and `check --all`
 * (docs/hooks.md), one reporter for both: done/total, rate and
 * ETA on stderr, on a terminal only, and only once the run has lasted the delay (one second;
 * FINDINGS_PROGRESS_AFTER_MS=0 here so that no test depends on how fast the machine is). The
 * terminal case runs the bin under `script`, which gives it a real pseudo-terminal and records
 * every byte it wrote, including the line it erased at the end. No time is asserted.
 */
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { progressDelayMs, progressReporter, renderProgress } from '../../src/output/progress.js';
import { BIN, FIXTURES, makeRepo } from '../helpers/repo.js';
import { constraint, indexJson } from '../hooks/setup.js';
import { generateHistory } from './history.js';

describe('renderProgress', () => {
  it('shows done/total, the rate and the time left', () => {
    expect(renderProgress({ done: 500, total: 2000, startedAt: 1000, now: 3000 })).toBe(
      'measuring: 500/2000 commits, 250 commits/s, ETA 6s',
    );
    expect(renderProgress({ done: 100, total: 10_000, startedAt: 0, now: 1000, verb: 'checking', unit: 'files' })).toBe(
      'checking: 100/10000 files, 100 files/s, ETA 1m39s',
    );
    expect(renderProgress({ done: 7, total: 7, startedAt: 0, now: 2000 })).toBe('measuring: 7/7 commits, 4 commits/s, ETA 0s');
    // Nothing done yet: no rate, no division by zero.
    expect(renderProgress({ done: 0, total: 7, startedAt: 5, now: 5 })).toBe('measuring: 0/7 commits, 0 commits/s, ETA 0s');
  });
});

describe('progressReporter', () => {
  const clock = (): { now: () => number; set: (t: number) => void } => {
    let t = 0;
    return { now: () => t, set: (v) => (t = v) };
  };

  it('draws nothing off a terminal', () => {
    let out = '';
    const c = clock();
    const r = progressReporter({ isTTY: false, write: (s: string) => (out += s) }, 10, { afterMs: 0, now: c.now });
    c.set(5000);
    r.update(5);
    r.end();
    expect(out).toBe('');
  });

  it('on a terminal, waits for the delay, redraws the line in place, and erases it at the end', () => {
    let out = '';
    const c = clock();
    const r = progressReporter({ isTTY: true, write: (s: string) => (out += s) }, 0, { afterMs: 1000, now: c.now });
    c.set(500);
    r.update(10, 100);
    expect(out).toBe('');
    c.set(2000);
    r.update(40);
    expect(out).toBe('\r\x1b[Kmeasuring: 40/100 commits, 20 commits/s, ETA 3s');
    r.end();
    expect(out.endsWith('\r\x1b[K')).toBe(true);
  });

  it('erases nothing when it never drew', () => {
    let out = '';
    const r = progressReporter({ isTTY: true, write: (s: string) => (out += s) }, 3, { afterMs: 60_000 });
    r.update(3);
    r.end();
    expect(out).toBe('');
  });

  it('waits one second unless FINDINGS_PROGRESS_AFTER_MS says otherwise', () => {
    expect(progressDelayMs({})).toBe(1000);
    expect(progressDelayMs({ FINDINGS_PROGRESS_AFTER_MS: '0' })).toBe(0);
    expect(progressDelayMs({ FINDINGS_PROGRESS_AFTER_MS: 'soon' })).toBe(1000);
  });
});

/** Why `script` cannot give the bin a terminal here, or null when it can. */
function noTerminal(): string | null {
  const r = spawnSync('script', ['-q', '-e', '-c', 'test -t 2', '/dev/null'], { encoding: 'utf8' });
  if (r.error) return 'script (util-linux) is not installed';
  return r.status === 0 ? null : `script gives no terminal: ${r.stderr.trim()}`;
}

describe('constraint measure progress through the bin', () => {
  const reason = noTerminal();
  if (reason !== null) console.log(`terminal progress test skipped: ${reason}`);
  const repo = makeRepo();
  generateHistory(repo, { commits: 60 });
  repo.copy(path.join(FIXTURES, 'lifecycle/measure/index.json'), '.agents/constraints/index.json');
  const env = { ...process.env, NO_COLOR: '1', FINDINGS_PROGRESS_AFTER_MS: '0' };
  const command = [process.execPath, BIN, 'constraint', 'measure', 'f-console'].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');

  it.skipIf(reason !== null)('draws done/total, rate and ETA on a terminal, then erases it', () => {
    const r = spawnSync('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: repo.root, env, encoding: 'utf8' });
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/\r\x1b\[Kmeasuring: 60\/60 commits, \d+ commits\/s, ETA 0s\r\x1b\[K/);
  });

  it('writes no progress at all when stderr is not a terminal', () => {
    const r = spawnSync(process.execPath, [BIN, 'constraint', 'measure', 'f-console'], { cwd: repo.root, env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('measuring:');
    expect(r.stdout).not.toContain('measuring:');
    expect(r.stdout).toContain('measured 1 constraint(s) over 60 commit(s)');
  });
});

describe('check --all progress through the bin', () => {
  const reason = noTerminal();
  const files: Record<string, string> = {};
  // Over one chunk (500 files); a case-folded pattern has no literal screen, so every file is read and checked.
  for (let i = 0; i < 1001; i += 1) files[`src/f${i}.js`] = `ok(${i});\n`;
  const repo = makeRepo(files);
  repo.write('.agents/constraints/index.json', indexJson(constraint('c-shout', { pattern: '(?i)forbidden' })));
  repo.commitAll('files');
  const env = { ...process.env, NO_COLOR: '1', FINDINGS_PROGRESS_AFTER_MS: '0' };
  const command = [process.execPath, BIN, 'check', '--all'].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');

  it.skipIf(reason !== null)('draws checking: done/total files with the measure reporter, then erases it', () => {
    const r = spawnSync('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: repo.root, env, encoding: 'utf8' });
    expect(r.status, r.stdout).toBe(0);
    // Every tracked file, the index included.
    expect(r.stdout).toMatch(/\r\x1b\[Kchecking: 500\/1002 files, \d+ files\/s, ETA \d+s\r\x1b\[K/);
    expect(r.stdout).toMatch(/\r\x1b\[Kchecking: 1002\/1002 files, \d+ files\/s, ETA 0s\r\x1b\[Kfindings check: 1002 file\(s\)/);
  });

  it('writes no progress at all when stderr is not a terminal', () => {
    const r = spawnSync(process.execPath, [BIN, 'check', '--all'], { cwd: repo.root, env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr + r.stdout).not.toContain('checking:');
  });
});
