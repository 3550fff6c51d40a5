/**
 * Real processes: SIGKILL at random moments, 8 concurrent writers, and the lock's exit paths.
 * Needs a fresh build (`npx tsc -p .`): these spawn the real bin and scripts importing dist/.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRegistry } from '../../src/registry/reader.js';
import { BIN, FIXTURES, GIT_ENV, spawnFindings, tempDir } from '../helpers/repo.js';
import { entry, line, REGISTRY } from './entries.js';
import { seededRandom } from '../helpers/seed.js';

const LOCK = '.agents/findings/registry.lock';

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  return r.pid!;
}

describe('crash safety', () => {
  it('SIGKILL at random moments (60 times) never leaves a partial line; every add that exited 0 is present', async () => {
    const root = tempDir('findings-crash-');
    // Kill times come from a printed seed: FINDINGS_TEST_SEED=<seed> replays them.
    const { seed, random: rand } = seededRandom('registry SIGKILL test');
    const succeeded = new Set<string>();
    const attempted = new Set<string>();
    // Calibrate on this machine, now: kill times then spread over 30 %–120 % of one add's duration,
    // so some adds finish, some die before the rename and some die in the middle of it.
    const t0 = performance.now();
    const first = await spawnFindings(['add', '--root', root], {
      cwd: root,
      stdin: JSON.stringify(entry({ id: 'f-crash-first', pattern: 'First' })),
    });
    expect(first.code, first.stderr).toBe(0);
    succeeded.add('f-crash-first');
    attempted.add('f-crash-first');
    const duration = performance.now() - t0;
    const runOne = (i: number): Promise<void> =>
      new Promise((resolve) => {
        const id = `f-crash-${String(i).padStart(3, '0')}`;
        attempted.add(id);
        const file = path.join(root, `in-${i}.json`);
        writeFileSync(file, JSON.stringify(entry({ id, pattern: `Crash finding ${i}` })));
        const child = spawn(process.execPath, [BIN, 'add', '--root', root, '--file', file], {
          env: { ...process.env, ...GIT_ENV },
          stdio: 'ignore',
        });
        const timer = setTimeout(() => child.kill('SIGKILL'), duration * (0.3 + 0.9 * rand()));
        child.on('exit', (code) => {
          clearTimeout(timer);
          if (code === 0) succeeded.add(id);
          resolve();
        });
      });
    for (let i = 0; i < 60; i += 2) await Promise.all([runOne(i), runOne(i + 1)]);
    if (process.env['CRASH_DEBUG']) console.log(`seed ${seed}: ${succeeded.size} of 61 adds exited 0`);
    // One more add after all the carnage: a lock left by a killed writer must not block it.
    const last = await spawnFindings(['add', '--root', root], {
      cwd: root,
      stdin: JSON.stringify(entry({ id: 'f-crash-final', pattern: 'Final' })),
    });
    expect(last.code, last.stderr).toBe(0);
    succeeded.add('f-crash-final');

    const text = readFileSync(path.join(root, REGISTRY), 'utf8');
    const parsed = parseRegistry(text);
    expect(parsed.problems, `seed ${seed}`).toEqual([]);
    expect(text.endsWith('\n')).toBe(true);
    const ids = parsed.entries.map((e) => e.entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of succeeded) expect(ids, `seed ${seed}: ${id} exited 0`).toContain(id);
    for (const id of ids) expect(attempted.has(id) || id === 'f-crash-final').toBe(true);
    expect(existsSync(path.join(root, LOCK))).toBe(false);
  });
});

describe('concurrency', () => {
  it('8 processes × 25 distinct entries each: all 200 present exactly once', async () => {
    const root = tempDir('findings-conc-');
    const script = path.join(FIXTURES, 'registry/add-loop.mjs');
    const codes = await Promise.all(
      Array.from(
        { length: 8 },
        (_, p) =>
          new Promise<number>((resolve) => {
            const child = spawn(process.execPath, [script, root, `p${p}`, '25'], { stdio: ['ignore', 'ignore', 'inherit'] });
            child.on('exit', (code) => resolve(code ?? -1));
          }),
      ),
    );
    expect(codes).toEqual(Array(8).fill(0));
    const parsed = parseRegistry(readFileSync(path.join(root, REGISTRY), 'utf8'));
    expect(parsed.problems).toEqual([]);
    const ids = parsed.entries.map((e) => e.entry.id);
    expect(ids).toHaveLength(200);
    expect(new Set(ids).size).toBe(200);
    expect(existsSync(path.join(root, LOCK))).toBe(false);
  });
});

describe('registry.lock', () => {
  const input = JSON.stringify(entry());
  const writeLock = (root: string, pid: number): void => {
    writeFileSync(path.join(root, LOCK), JSON.stringify({ pid, host: hostname(), token: 'test-token' }));
  };
  const repo = (): string => {
    const root = tempDir('findings-lock-');
    writeFileSync(path.join(root, '.keep'), '');
    spawnSync('mkdir', ['-p', path.join(root, '.agents/findings')]);
    return root;
  };

  it('a lock left by a dead process is taken over at once', async () => {
    const root = repo();
    writeLock(root, deadPid());
    const r = await spawnFindings(['add', '--root', root], { cwd: root, stdin: input });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(root, LOCK))).toBe(false);
  });

  it('a live holder is waited for, then a clear error and exit 2 (FINDINGS_LOCK_TIMEOUT_MS)', async () => {
    const root = repo();
    writeLock(root, process.pid);
    const r = await spawnFindings(['add', '--root', root], { cwd: root, stdin: input, env: { FINDINGS_LOCK_TIMEOUT_MS: '300' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`held by process ${process.pid}`);
    expect(existsSync(path.join(root, REGISTRY))).toBe(false);
    // The holder's lock is not touched by the waiter.
    expect(JSON.parse(readFileSync(path.join(root, LOCK), 'utf8'))).toMatchObject({ token: 'test-token' });
  });

  it('a live holder that finishes lets the waiter through', async () => {
    const root = repo();
    writeLock(root, process.pid);
    const pending = spawnFindings(['add', '--root', root], { cwd: root, stdin: input, env: { FINDINGS_LOCK_TIMEOUT_MS: '20000' } });
    setTimeout(() => rmSync(path.join(root, LOCK)), 400);
    const r = await pending;
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(root, REGISTRY), 'utf8')).toBe(`${line(entry())}\n`);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('the lock is removed when the holder gets %s, and nothing is written', async (signal) => {
    const root = repo();
    const child = spawn(process.execPath, [path.join(FIXTURES, 'registry/hold-lock.mjs'), root, JSON.stringify(entry())], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    expect(existsSync(path.join(root, LOCK))).toBe(true);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    child.kill(signal);
    expect(await exited).toBe(signal);
    expect(existsSync(path.join(root, LOCK))).toBe(false);
    expect(existsSync(path.join(root, REGISTRY))).toBe(false);
  });
});
