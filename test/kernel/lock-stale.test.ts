/**
 * Stale locks (src/fs/lock.ts): a lock records host, pid, process start time and creation time;
 * a holder that provably is not a live findings process on this host is taken over at once, one
 * that cannot be judged after FINDINGS_LOCK_STALE_MS (with a warning), a live one never.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock, LockTimeoutError, processStartTime } from '../../src/fs/lock.js';
import { tempDir } from '../helpers/repo.js';

const lockFile = (): string => path.join(tempDir(), 'x.lock');
const DAY = 24 * 60 * 60 * 1000;
const onLinux = process.platform === 'linux';

afterEach(() => {
  delete process.env['FINDINGS_LOCK_STALE_MS'];
});

describe('stale locks', () => {
  it('records host, pid, process start time and creation time', async () => {
    const lock = lockFile();
    const release = await acquireLock(lock);
    const owner = JSON.parse(readFileSync(lock, 'utf8')) as Record<string, unknown>;
    release();
    expect(owner).toMatchObject({ pid: process.pid, host: hostname(), start: processStartTime(process.pid) });
    expect(typeof owner['created']).toBe('number');
    expect(typeof owner['token']).toBe('string');
  });

  it.runIf(onLinux)('reads the start time from /proc/<pid>/stat field 22, stable for one process, different for another', () => {
    const mine = processStartTime(process.pid);
    expect(mine).toMatch(/^\d+$/);
    expect(processStartTime(process.pid)).toBe(mine);
    const child = spawnSync(process.execPath, ['-e', 'console.log(require("fs").readFileSync("/proc/self/stat","utf8"))'], {
      encoding: 'utf8',
    });
    const fields = child.stdout.slice(child.stdout.lastIndexOf(')') + 2).split(' ');
    expect(fields[19]).toMatch(/^\d+$/);
  });

  it.runIf(onLinux)('takes over at once a lock naming a live pid that was started at another time (pid reuse)', async () => {
    const lock = lockFile();
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), token: 'reused', start: '1', created: Date.now() }));
    const warnings: string[] = [];
    const release = await acquireLock(lock, { timeoutMs: 100, onWarning: (m) => warnings.push(m) });
    release();
    expect(warnings).toEqual([]);
    expect(existsSync(lock)).toBe(false);
  });

  it('never takes over a lock held by a live findings process here, however old', async () => {
    const lock = lockFile();
    writeFileSync(
      lock,
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        token: 'live',
        start: processStartTime(process.pid),
        created: Date.now() - DAY,
      }),
    );
    const error = await acquireLock(lock, { timeoutMs: 50, staleMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ token: 'live' });
  });

  it('takes over, with a warning, a lock from another host older than FINDINGS_LOCK_STALE_MS', async () => {
    const lock = lockFile();
    process.env['FINDINGS_LOCK_STALE_MS'] = '60000';
    writeFileSync(lock, JSON.stringify({ pid: 4242, host: 'ci-runner-gone', token: 'other', start: '5', created: Date.now() - 61_000 }));
    const warnings: string[] = [];
    const release = await acquireLock(lock, { timeoutMs: 100, onWarning: (m) => warnings.push(m) });
    release();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('of process 4242 on host ci-runner-gone');
    expect(warnings[0]).toContain('older than 60 s (FINDINGS_LOCK_STALE_MS)');
  });

  it('waits for a fresh lock from another host, saying when it will be taken over (default 10 minutes)', async () => {
    const lock = lockFile();
    writeFileSync(lock, JSON.stringify({ pid: 4242, host: 'ci-runner-other', token: 'other', start: '5', created: Date.now() - 60_000 }));
    const error = await acquireLock(lock, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as Error).message).toContain(
      'process 4242 on host ci-runner-other (taken over once it is older than 600 s, FINDINGS_LOCK_STALE_MS)',
    );
  });

  it('keeps reading old lock files ({pid, host, token}): dead pid at once, live pid after the bound (file mtime)', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const lock1 = lockFile();
    writeFileSync(lock1, JSON.stringify({ pid: dead, host: hostname(), token: 'old' }));
    (await acquireLock(lock1, { timeoutMs: 100 }))();

    const lock2 = lockFile();
    writeFileSync(lock2, JSON.stringify({ pid: process.ppid, host: hostname(), token: 'old-live' }));
    const fresh = await acquireLock(lock2, { timeoutMs: 50, staleMs: 60_000 }).catch((e: unknown) => e);
    expect(fresh).toBeInstanceOf(LockTimeoutError);
    const old = (Date.now() - 2 * 60_000) / 1000;
    utimesSync(lock2, old, old);
    const warnings: string[] = [];
    (await acquireLock(lock2, { timeoutMs: 100, staleMs: 60_000, onWarning: (m) => warnings.push(m) }))();
    expect(warnings).toHaveLength(1);
  });
});
