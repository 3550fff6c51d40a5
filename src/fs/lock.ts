/**
 * Advisory lock files (`registry.lock`, `compile.lock`, review locks).
 *
 * A lock is a file created with O_EXCL holding the owner's pid and host. Why pid-based and not
 * mtime-based: a writer killed with SIGKILL must not stall the next writer for a staleness
 * window; a lock whose pid is gone on this host is taken over at once. Locks are removed on
 * every exit path: normal return, thrown error, process exit, SIGINT, SIGTERM.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { errorCode } from './atomic.js';

export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
  constructor(
    readonly lockPath: string,
    readonly holderPid: number | null,
  ) {
    super(
      `lock ${lockPath} is held by ${holderPid === null ? 'another process' : `process ${holderPid}`}; ` +
        'try again when it finishes, or remove the file if that process is gone',
    );
  }
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

const held = new Map<string, string>(); // abs path -> token
let handlersInstalled = false;

function releaseAllSync(): void {
  for (const [abs, token] of held) {
    try {
      const owner = readOwner(abs);
      if (owner?.token === token) unlinkSync(abs);
    } catch {
      // best effort on the way out
    }
  }
  held.clear();
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', releaseAllSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      releaseAllSync();
      // Re-raise with the default action so the exit status still says "killed by signal".
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    });
  }
}

function readOwner(abs: string): LockOwner | null {
  try {
    const parsed = JSON.parse(readFileSync(abs, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.token === 'string') {
      return { pid: parsed.pid, host: parsed.host, token: parsed.token };
    }
    return null;
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

function tryCreate(abs: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(abs, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up (default 10 s, `FINDINGS_LOCK_TIMEOUT_MS`). */
  timeoutMs?: number;
  pollMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Acquires the lock at `abs`; resolves to a release function. */
export async function acquireLock(abs: string, options: LockOptions = {}): Promise<() => void> {
  installHandlers();
  const envTimeout = Number(process.env['FINDINGS_LOCK_TIMEOUT_MS']);
  const timeoutMs = options.timeoutMs ?? (Number.isFinite(envTimeout) && envTimeout > 0 ? envTimeout : 10_000);
  const pollMs = options.pollMs ?? 10;
  mkdirSync(path.dirname(abs), { recursive: true });
  const me: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  const deadline = Date.now() + timeoutMs;
  let lastHolder: number | null = null;
  let garbageSince: number | undefined;
  for (;;) {
    if (tryCreate(abs, me)) {
      held.set(abs, me.token);
      return () => {
        if (held.get(abs) !== me.token) return;
        held.delete(abs);
        const owner = readOwner(abs);
        if (owner?.token === me.token) {
          try {
            unlinkSync(abs);
          } catch {
            // already gone
          }
        }
      };
    }
    const owner = readOwner(abs);
    lastHolder = owner?.pid ?? null;
    if (owner && owner.host === me.host && !processAlive(owner.pid)) {
      // Stale: its writer died. Re-read right before unlinking so we never remove a lock
      // that another waiter has just taken over.
      const again = readOwner(abs);
      if (again?.token === owner.token) {
        try {
          unlinkSync(abs);
        } catch {
          // someone else removed it first
        }
      }
      continue;
    }
    if (owner === null) {
      // Being written this instant, or garbage left by a crash between create and write:
      // garbage that stays unreadable for a second is treated as stale.
      garbageSince ??= Date.now();
      if (Date.now() - garbageSince > 1_000) {
        try {
          unlinkSync(abs);
        } catch {
          // gone
        }
        garbageSince = undefined;
        continue;
      }
    } else {
      garbageSince = undefined;
    }
    if (Date.now() > deadline) throw new LockTimeoutError(abs, lastHolder);
    await sleep(pollMs + Math.floor(Math.random() * pollMs));
  }
}

/** Runs `fn` while holding the lock; releases it on every path. */
export async function withLock<T>(abs: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const release = await acquireLock(abs, options);
  try {
    return await fn();
  } finally {
    release();
  }
}
