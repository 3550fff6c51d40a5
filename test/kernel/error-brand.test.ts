/**
 * The commit hook's bundle holds its own copy of the modules that define the errors the CLI
 * recognises, while a module it loads on demand imports dist/'s (scripts/bundle-hook.mjs). An
 * error thrown by either copy must still be `instanceof` the other's class, or the hook would
 * report bad input as an internal error.
 */
import { describe, expect, it, vi } from 'vitest';

async function twoCopies() {
  const load = async () => ({
    exit: await import('../../src/exit-codes.js'),
    git: await import('../../src/git/core.js'),
    lock: await import('../../src/fs/lock.js'),
    write: await import('../../src/fs/repo-write.js'),
    atomic: await import('../../src/fs/atomic.js'),
  });
  const first = await load();
  vi.resetModules();
  const second = await load();
  return { first, second };
}

describe('error classes answer instanceof across module copies', () => {
  it('each recognised class, thrown by one copy, is an instance of the other copy’s class', async () => {
    const { first, second } = await twoCopies();
    expect(first.exit.UsageError).not.toBe(second.exit.UsageError); // two copies indeed
    expect(new first.exit.UsageError('x')).toBeInstanceOf(second.exit.UsageError);
    expect(new second.git.GitError(['status'], 128, 'no')).toBeInstanceOf(first.git.GitError);
    expect(new first.lock.LockTimeoutError('/r/x.lock', 1)).toBeInstanceOf(second.lock.LockTimeoutError);
    expect(new second.write.WriteRefusedError('no')).toBeInstanceOf(first.write.WriteRefusedError);
  });

  it('classes stay apart, and a subclass answers by its own prototype chain', async () => {
    const { first, second } = await twoCopies();
    const usage = new first.exit.UsageError('x');
    expect(usage).not.toBeInstanceOf(second.git.GitError);
    expect(new Error('plain')).not.toBeInstanceOf(first.exit.UsageError);
    expect(first.exit.UsageError[Symbol.hasInstance](null)).toBe(false);
    // WriteFailedError extends UsageError: it is a UsageError of either copy, but a UsageError is not a WriteFailedError.
    const failed = new first.atomic.WriteFailedError('/r/a', 'ENOSPC');
    expect(failed).toBeInstanceOf(second.exit.UsageError);
    expect(failed).toBeInstanceOf(first.atomic.WriteFailedError);
    expect(usage).not.toBeInstanceOf(first.atomic.WriteFailedError);
  });

  it('the brand is not an own, enumerable property: errors print as before', async () => {
    const { first } = await twoCopies();
    const error = new first.exit.UsageError('x');
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(Object.keys(error)).toEqual(['name']);
  });
});
