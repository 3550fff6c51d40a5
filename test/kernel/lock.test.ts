import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, LockTimeoutError, withLock } from '../../src/fs/lock.js';
import { tempDir } from '../helpers/repo.js';

describe('lock files', () => {
  it('removes the lock after the work, also when it throws', async () => {
    const lock = path.join(tempDir(), 'x.lock');
    await withLock(lock, async () => expect(existsSync(lock)).toBe(true));
    expect(existsSync(lock)).toBe(false);
    await expect(withLock(lock, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(lock)).toBe(false);
  });
  it('takes over a lock left by a dead process at once', async () => {
    const lock = path.join(tempDir(), 'x.lock');
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.on('close', r));
    writeFileSync(lock, JSON.stringify({ pid: dead.pid, host: hostname(), token: 'old' }));
    const release = await acquireLock(lock, { timeoutMs: 200 });
    release();
    expect(existsSync(lock)).toBe(false);
  });
  it('waits for a live holder, then gives up with a clear error', async () => {
    const lock = path.join(tempDir(), 'x.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), token: 'live' }));
    const error = await acquireLock(lock, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as Error).message).toContain(`process ${process.ppid}`);
    expect(existsSync(lock)).toBe(true);
  });
  it('serialises two holders in one process', async () => {
    const lock = path.join(tempDir(), 'x.lock');
    const order: string[] = [];
    await Promise.all([
      withLock(lock, async () => {
        order.push('a+');
        await new Promise((r) => setTimeout(r, 30));
        order.push('a-');
      }),
      withLock(lock, async () => {
        order.push('b+');
        order.push('b-');
      }),
    ]);
    expect([order.slice(0, 2), order.slice(2)].map((p) => p[0]![0] === p[1]![0])).toEqual([true, true]);
  });
});
