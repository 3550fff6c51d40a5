/**
 * Advisory lock files (`registry.lock`, `compile.lock`, review locks).
 *
 * A lock is a file created with O_EXCL holding the owner's host, pid, process start time and
 * creation time. Why not mtime-based alone: a writer killed with SIGKILL must not stall the next
 * writer for a staleness window, so a lock whose holder provably is not a live findings process on
 * this host — its pid is gone, or the pid now belongs to a process started at another time (pid
 * reuse) — is taken over at once. A lock whose holder cannot be judged (another host name, as
 * containers and CI runners get; a lock file from an older version naming a live pid) is taken over,
 * with a warning, once it is older than a bound (default 10 minutes, `FINDINGS_LOCK_STALE_MS`).
 * A lock held by a live findings process here is never taken over. Locks are removed on every exit
 * path: normal return, thrown error, process exit, SIGINT, SIGTERM, SIGHUP.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { brandErrorClass } from '../exit-codes.js';
import { errorCode, writeAll } from './atomic.js';
import { onExitCleanup } from './exit-cleanup.js';

export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
  constructor(
    readonly lockPath: string,
    readonly holderPid: number | null,
    detail = '',
  ) {
    super(
      `lock ${lockPath} is held by ${holderPid === null ? 'another process' : `process ${holderPid}`}${detail}; ` +
        'try again when it finishes, or remove the file if that process is gone',
    );
  }
}
brandErrorClass(LockTimeoutError, 'LockTimeoutError');

interface LockOwner {
  pid: number;
  host: string;
  token: string;
  /** The holder's process start time (Linux: /proc/<pid>/stat field 22; elsewhere `ps -o lstart`); absent in old lock files. */
  start?: string | null;
  /** When the lock was taken (ms since the epoch); absent in old lock files (the file's mtime is used). */
  created?: number;
}

/** The default bound after which a lock whose holder cannot be judged is taken over. */
export const DEFAULT_STALE_MS = 10 * 60 * 1000;

/**
 * A process's start time as an opaque string, or null when it cannot be read. Two reads for the
 * same pid differ only if the pid now names another process.
 */
export function processStartTime(pid: number): string | null {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 2 (comm) may contain spaces and parentheses: count fields after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[22 - 3] ?? null;
    } catch {
      return null;
    }
  }
  if (process.platform === 'win32') return null;
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
    return out === '' ? null : out;
  } catch {
    return null;
  }
}

let ownStart: string | null | undefined;
/** This process's start time, read once (on macOS and BSD it costs a `ps`). */
function ownStartTime(): string | null {
  if (ownStart === undefined) ownStart = processStartTime(process.pid);
  return ownStart;
}

const held = new Map<string, string>(); // abs path -> token

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

let handlersInstalled = false;
function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  onExitCleanup(releaseAllSync);
}

function readOwner(abs: string): LockOwner | null {
  try {
    const parsed = JSON.parse(readFileSync(abs, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.token === 'string') {
      return {
        pid: parsed.pid,
        host: parsed.host,
        token: parsed.token,
        start: typeof parsed.start === 'string' ? parsed.start : null,
        ...(typeof parsed.created === 'number' ? { created: parsed.created } : {}),
      };
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
    writeAll(fd, Buffer.from(JSON.stringify(owner)));
  } finally {
    closeSync(fd);
  }
  return true;
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up (default 10 s, `FINDINGS_LOCK_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** Age after which a lock whose holder cannot be judged is taken over (default 10 min, `FINDINGS_LOCK_STALE_MS`). */
  staleMs?: number;
  pollMs?: number;
  /** Where the take-over warning goes (default standard error). */
  onWarning?: (message: string) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function envMs(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/**
 * What is known of a lock's holder: `dead` (provably not a live findings process on this host:
 * its pid is gone, or names a process started at another time), `live` (this host, the pid's start
 * time is the recorded one), or `unknown` (another host, or no start time to compare).
 */
export function judgeHolder(owner: LockOwner, host: string): 'dead' | 'live' | 'unknown' {
  if (owner.host !== host) return 'unknown';
  if (!processAlive(owner.pid)) return 'dead';
  if (owner.start === null || owner.start === undefined) return 'unknown';
  const now = processStartTime(owner.pid);
  if (now === null) return 'unknown';
  return now === owner.start ? 'live' : 'dead';
}

/** When the lock was taken: the recorded time, else (old lock files) the file's mtime. */
function lockAge(abs: string, owner: LockOwner): number | null {
  if (owner.created !== undefined) return Date.now() - owner.created;
  try {
    return Date.now() - statSync(abs).mtimeMs;
  } catch {
    return null;
  }
}

/** Removes the lock if it still holds `token` (re-read first: another waiter may have just taken it over). */
function removeIfHeldBy(abs: string, token: string): void {
  const again = readOwner(abs);
  if (again?.token !== token) return;
  try {
    unlinkSync(abs);
  } catch {
    // someone else removed it first
  }
}

/** Acquires the lock at `abs`; resolves to a release function. */
export async function acquireLock(abs: string, options: LockOptions = {}): Promise<() => void> {
  installHandlers();
  const timeoutMs = options.timeoutMs ?? envMs('FINDINGS_LOCK_TIMEOUT_MS', 10_000);
  const staleMs = options.staleMs ?? envMs('FINDINGS_LOCK_STALE_MS', DEFAULT_STALE_MS);
  const pollMs = options.pollMs ?? 10;
  const warn = options.onWarning ?? ((m: string) => process.stderr.write(`${m}\n`));
  mkdirSync(path.dirname(abs), { recursive: true });
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    token: randomBytes(8).toString('hex'),
    start: ownStartTime(),
    created: Date.now(),
  };
  const deadline = Date.now() + timeoutMs;
  let lastHolder: number | null = null;
  let detail = '';
  let garbageSince: number | undefined;
  for (;;) {
    me.created = Date.now();
    if (tryCreate(abs, me)) {
      held.set(abs, me.token);
      return () => {
        if (held.get(abs) !== me.token) return;
        held.delete(abs);
        removeIfHeldBy(abs, me.token);
      };
    }
    const owner = readOwner(abs);
    lastHolder = owner?.pid ?? null;
    if (owner !== null) {
      garbageSince = undefined;
      const holder = judgeHolder(owner, me.host);
      if (holder === 'dead') {
        removeIfHeldBy(abs, owner.token);
        continue;
      }
      if (holder === 'unknown') {
        const age = lockAge(abs, owner);
        const where = owner.host === me.host ? '' : ` on host ${owner.host}`;
        if (age !== null && age > staleMs) {
          warn(
            `findings: taking over the lock ${abs} of process ${owner.pid}${where}: it is ${Math.round(age / 1000)} s old, ` +
              `older than ${Math.round(staleMs / 1000)} s (FINDINGS_LOCK_STALE_MS), and its holder cannot be checked from here`,
          );
          removeIfHeldBy(abs, owner.token);
          continue;
        }
        detail = `${where} (taken over once it is older than ${Math.round(staleMs / 1000)} s, FINDINGS_LOCK_STALE_MS)`;
      } else {
        detail = '';
      }
    } else {
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
    }
    if (Date.now() > deadline) throw new LockTimeoutError(abs, lastHolder, detail);
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
