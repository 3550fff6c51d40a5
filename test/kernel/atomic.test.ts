/**
 * The one atomic writer (src/fs/atomic.ts): every byte, size checked, fsync, rename; a failure
 * leaves the target as it was and no temp file behind. System calls are injected here; the
 * tmpfs test in test/writers/disk-full.test.ts fills a real disk.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeWriteOps, writeAll, writeFileAtomically, WriteFailedError, type WriteOps } from '../../src/fs/atomic.js';
import { tempDir } from '../helpers/repo.js';

const fail = (code: string): Error => Object.assign(new Error(code), { code });

function withOld(): { dir: string; file: string } {
  const dir = tempDir();
  const file = path.join(dir, 'registry.jsonl');
  writeFileSync(file, 'old content\n');
  return { dir, file };
}

describe('atomic writer', () => {
  it('continues after short writes until every byte is written', async () => {
    const { dir, file } = withOld();
    const calls: number[] = [];
    // At most 7 bytes per call, as a file system short of space may do.
    const ops: WriteOps = {
      ...nodeWriteOps,
      write: (fd, buf, off, len) => {
        const n = nodeWriteOps.write(fd, buf, off, Math.min(len, 7));
        calls.push(n);
        return n;
      },
    };
    const data = `${'x'.repeat(100)}\n`;
    await writeFileAtomically(file, data, { ops });
    expect(readFileSync(file, 'utf8')).toBe(data);
    expect(calls.length).toBe(15);
    expect(readdirSync(dir)).toEqual(['registry.jsonl']);
  });

  it('a write that stops short then fails with ENOSPC: exit-2 error, target untouched, no temp file', async () => {
    const { dir, file } = withOld();
    let first = true;
    const ops: WriteOps = {
      ...nodeWriteOps,
      write: (fd, buf, off, len) => {
        if (!first) throw fail('ENOSPC');
        first = false;
        return nodeWriteOps.write(fd, buf, off, Math.min(len, 4096));
      },
    };
    const error = await writeFileAtomically(file, 'y'.repeat(10_000), { ops, display: '.agents/findings/registry.jsonl' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WriteFailedError);
    expect((error as Error).message).toBe('cannot write .agents/findings/registry.jsonl (ENOSPC: disk full); it is unchanged');
    expect(readFileSync(file, 'utf8')).toBe('old content\n');
    expect(readdirSync(dir)).toEqual(['registry.jsonl']);
  });

  it.each(['EDQUOT', 'EIO'])('%s from fsync: the torn temp file is never renamed over the target', async (code) => {
    const { dir, file } = withOld();
    const ops: WriteOps = {
      ...nodeWriteOps,
      fsync: () => {
        throw fail(code);
      },
    };
    await expect(writeFileAtomically(file, 'new\n', { ops })).rejects.toThrow(WriteFailedError);
    expect(readFileSync(file, 'utf8')).toBe('old content\n');
    expect(readdirSync(dir)).toEqual(['registry.jsonl']);
  });

  it('refuses to rename a temp file whose size the file system reports short', async () => {
    const { dir, file } = withOld();
    const ops: WriteOps = { ...nodeWriteOps, size: () => 4096 };
    await expect(writeFileAtomically(file, 'z'.repeat(5000), { ops })).rejects.toThrow(WriteFailedError);
    expect(readFileSync(file, 'utf8')).toBe('old content\n');
    expect(readdirSync(dir)).toEqual(['registry.jsonl']);
  });

  it('a crash between the temp write and the rename leaves the old content (an in-place write would not)', async () => {
    const { file } = withOld();
    const ops: WriteOps = {
      ...nodeWriteOps,
      rename: () => {
        throw new Error('killed before rename');
      },
    };
    await expect(writeFileAtomically(file, 'half of the new content', { ops })).rejects.toThrow('killed before rename');
    expect(readFileSync(file, 'utf8')).toBe('old content\n');
  });

  it('fsyncs the file before the rename and the folder after it', async () => {
    const { file } = withOld();
    const order: string[] = [];
    const ops: WriteOps = {
      ...nodeWriteOps,
      fsync: (fd) => {
        order.push('fsync');
        nodeWriteOps.fsync(fd);
      },
      rename: (a, b) => {
        order.push('rename');
        nodeWriteOps.rename(a, b);
      },
      fsyncDir: (d) => {
        order.push('fsync-dir');
        nodeWriteOps.fsyncDir(d);
      },
    };
    await writeFileAtomically(file, 'new\n', { ops });
    expect(order).toEqual(['fsync', 'rename', 'fsync-dir']);
  });

  it('writeAll fails on a write that makes no progress instead of looping forever', () => {
    expect(() => writeAll(3, Buffer.from('abc'), { write: () => 0 })).toThrow(/no progress/);
  });
});
