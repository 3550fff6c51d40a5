/**
 * The one atomic writer (contract: "Atomic Update Rule"; ARCHITECTURE.md "Writes"). Every file the
 * tools write goes through `writeFileAtomically`: a temp file in the target's own folder, every
 * byte written (a short write is continued, never ignored), the size checked and the file fsynced,
 * then renamed over the target and the folder fsynced. Why not write-file-atomic: it issues one
 * `fs.write` and ignores a short write, so on a nearly full disk it renamed a torn 4,096-byte file
 * over the registry and reported success.
 *
 * On any failure the temp file is removed and the target is untouched; a full disk or an I/O
 * error (ENOSPC, EDQUOT, EIO) becomes a `WriteFailedError` (exit 2, naming the file).
 */
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { fsPromises } from '../lazy-builtins.js';
import path from 'node:path';
import { UsageError } from '../exit-codes.js';

/** The system calls the writer makes; tests replace some of them (a short write, a crash before the rename). */
export interface WriteOps {
  open(file: string): number;
  write(fd: number, buffer: Buffer, offset: number, length: number): number;
  size(fd: number): number;
  fsync(fd: number): void;
  close(fd: number): void;
  rename(from: string, to: string): void;
  unlink(file: string): void;
  fsyncDir(dir: string): void;
}

export const nodeWriteOps: WriteOps = {
  open: (file) => openSync(file, 'wx', 0o666),
  write: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
  size: (fd) => fstatSync(fd).size,
  fsync: (fd) => fsyncSync(fd),
  close: (fd) => closeSync(fd),
  rename: (from, to) => renameSync(from, to),
  unlink: (file) => unlinkSync(file),
  fsyncDir: (dir) => {
    let fd: number;
    try {
      fd = openSync(dir, 'r');
    } catch {
      return; // a folder that cannot be opened for reading (Windows) cannot be fsynced either
    }
    try {
      fsyncSync(fd);
    } catch {
      // some file systems refuse fsync on a folder; the rename itself has been done
    } finally {
      closeSync(fd);
    }
  },
};

/** Error codes that mean "the disk could not take the bytes": reported as exit 2, not as a bug. */
const DISK_ERRORS = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EFBIG']);

/** A write that could not complete; the target is unchanged and no temp file is left. Exit 2. */
export class WriteFailedError extends UsageError {
  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`cannot write ${file} (${code}${code === 'ENOSPC' || code === 'EDQUOT' ? ': disk full' : ''}); it is unchanged`);
  }
}

/** Temp files of this writer: `.<name>.findings-<pid>-<n>.tmp`, beside the target. */
export const TEMP_FILE = /^\..+\.findings-\d+-\d+\.tmp$/;
let counter = 0;

/** A fresh temp path beside `abs`. */
export function tempPathFor(abs: string): string {
  counter += 1;
  return path.join(path.dirname(abs), `.${path.basename(abs)}.findings-${process.pid}-${counter}.tmp`);
}

/** Writes all of `buffer` to `fd`, continuing after short writes. A write that makes no progress fails. */
export function writeAll(fd: number, buffer: Buffer, ops: Pick<WriteOps, 'write'> = nodeWriteOps): void {
  let offset = 0;
  while (offset < buffer.length) {
    const n = ops.write(fd, buffer, offset, buffer.length - offset);
    if (!Number.isInteger(n) || n <= 0)
      throw Object.assign(new Error(`write made no progress at byte ${offset} of ${buffer.length}`), { code: 'EIO' });
    offset += n;
  }
}

export interface AtomicOptions {
  /** fsync the file before the rename and the folder after it (default true). */
  durable?: boolean;
  /** Name for messages (repository-relative); default the absolute path. */
  display?: string;
  /** Replaced system calls (tests). */
  ops?: WriteOps;
  /** Create missing parent folders (default true). */
  mkdir?: boolean;
}

/** `error` as the writers report it: a disk that could not take the bytes is a WriteFailedError naming `display` (exit 2). */
export function asWriteFailure(error: unknown, display: string): unknown {
  const code = errorCode(error);
  return code !== undefined && DISK_ERRORS.has(code) && !(error instanceof WriteFailedError) ? new WriteFailedError(display, code) : error;
}

/**
 * Creates `file` (exclusively, through `ops.open`) holding every byte of `data`, its size checked
 * against the file system's own count, fsynced when `durable`, and closed; closed on failure too,
 * the error as `asWriteFailure` gives it. Removing what a failure leaves is the caller's.
 */
export function writeWholeFile(file: string, data: Buffer, ops: WriteOps, options: { display: string; durable: boolean }): void {
  let fd: number | null = null;
  try {
    fd = ops.open(file);
    writeAll(fd, data, ops);
    // The file system's own count must match: a torn file is never renamed or published.
    const size = ops.size(fd);
    if (size !== data.length) throw Object.assign(new Error(`wrote ${size} of ${data.length} bytes`), { code: 'EIO' });
    if (options.durable) ops.fsync(fd);
    const closing = fd;
    fd = null;
    ops.close(closing);
  } catch (error) {
    if (fd !== null) {
      try {
        ops.close(fd);
      } catch {
        // already failing
      }
    }
    throw asWriteFailure(error, options.display);
  }
}

/** Writes `data` to `abs` atomically (see the module comment). Synchronous: one file, a few system calls. */
export function writeFileAtomicallySync(abs: string, data: string | Buffer, options: AtomicOptions = {}): void {
  const ops = options.ops ?? nodeWriteOps;
  const durable = options.durable ?? true;
  const display = options.display ?? abs;
  const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (options.mkdir ?? true) mkdirSync(path.dirname(abs), { recursive: true });
  const tmp = tempPathFor(abs);
  try {
    writeWholeFile(tmp, buffer, ops, { display, durable });
    ops.rename(tmp, abs);
  } catch (error) {
    try {
      ops.unlink(tmp);
    } catch {
      // never created, or already gone
    }
    throw asWriteFailure(error, display);
  }
  if (durable) ops.fsyncDir(path.dirname(abs));
}

/** Promise form of `writeFileAtomicallySync` (same guarantees). */
export async function writeFileAtomically(abs: string, data: string | Buffer, options: AtomicOptions = {}): Promise<void> {
  writeFileAtomicallySync(abs, data, options);
}

/** Reads a file, or null when it does not exist. Other errors propagate (the caller reports them as exit 2). */
export async function readIfExists(abs: string): Promise<Buffer | null> {
  try {
    return await fsPromises().readFile(abs);
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
export async function writeIfChanged(abs: string, data: string, options: AtomicOptions = {}): Promise<'created' | 'updated' | 'unchanged'> {
  const current = await readIfExists(abs);
  if (current !== null && current.toString('utf8') === data) return 'unchanged';
  await writeFileAtomically(abs, data, options);
  return current === null ? 'created' : 'updated';
}

/** Removes a file if present. Returns whether it existed. */
export async function removeIfExists(abs: string): Promise<boolean> {
  try {
    await fsPromises().rm(abs);
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
