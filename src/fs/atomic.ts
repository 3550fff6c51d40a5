/** Atomic writes: a temp file in the target's own directory, fsync, then rename (contract: "Atomic Update Rule"). */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** Writes `data` to `abs` atomically, creating parent folders. */
export async function writeFileAtomically(abs: string, data: string | Buffer): Promise<void> {
  mkdirSync(path.dirname(abs), { recursive: true });
  await writeFileAtomic(abs, data, { fsync: true });
}

export function writeFileAtomicallySync(abs: string, data: string | Buffer): void {
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileAtomic.sync(abs, data, { fsync: true });
}

/** Reads a file, or null when it does not exist. Other errors propagate (the caller reports them as exit 2). */
export async function readIfExists(abs: string): Promise<Buffer | null> {
  try {
    return await readFile(abs);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

export function readIfExistsSync(abs: string): Buffer | null {
  try {
    return readFileSync(abs);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Writes only when the bytes differ. Returns what happened. */
export async function writeIfChanged(abs: string, data: string): Promise<'created' | 'updated' | 'unchanged'> {
  const current = await readIfExists(abs);
  if (current !== null && current.toString('utf8') === data) return 'unchanged';
  await writeFileAtomically(abs, data);
  return current === null ? 'created' : 'updated';
}

/** Removes a file if present. Returns whether it existed. */
export async function removeIfExists(abs: string): Promise<boolean> {
  try {
    await rm(abs);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

export function removeIfExistsSync(abs: string): void {
  rmSync(abs, { force: true });
}

export function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

export function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
