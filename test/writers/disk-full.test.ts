/**
 * A real full disk: a small tmpfs (needs root to mount; skipped with a printed reason otherwise).
 * `findings add` of 40 entries that do not fit must exit 2, leave the registry byte for byte as it
 * was, and leave no temp file — write-file-atomic renamed a torn 4,096-byte file here and exited 0.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, writeSync, ftruncateSync, fstatSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFindings, tempDir } from '../helpers/repo.js';
import { entry, REGISTRY } from '../registry/entries.js';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const mounted: string[] = [];

function mountTmpfs(): string | null {
  const dir = tempDir('findings-tmpfs-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    console.log(`disk-full test skipped: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`);
    return null;
  }
  mounted.push(dir);
  return dir;
}

/** Fills the file system, then frees `leave` bytes (tmpfs counts whole pages). */
function fill(dir: string, leave: number): void {
  const fd = openSync(path.join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch {
    // ENOSPC: full
  }
  ftruncateSync(fd, Math.max(0, fstatSync(fd).size - leave));
  closeSync(fd);
}

afterAll(() => {
  for (const d of mounted) execFileSync('umount', [d]);
});

describe.runIf(isRoot)('a full disk (tmpfs)', () => {
  it('add exits 2, the registry is unchanged and no temp file is left', async () => {
    const root = mountTmpfs();
    if (root === null) return;
    const first = await runFindings(['add', '--root', root], {
      cwd: root,
      stdin: JSON.stringify(entry({ id: 'f-d-old', pattern: 'The entry that was there before' })),
    });
    expect(first.code, first.stderr).toBe(0);
    const before = readFileSync(path.join(root, REGISTRY));
    fill(root, 8192);
    const many = Array.from({ length: 40 }, (_, i) =>
      entry({ id: `f-d-${i}`, pattern: `Disk full finding number ${i} ${'padding '.repeat(40)}` }),
    );
    const r = await runFindings(['add', '--root', root], { cwd: root, stdin: JSON.stringify(many) });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('cannot write .agents/findings/registry.jsonl (ENOSPC: disk full); it is unchanged');
    expect(r.stdout).not.toContain('appended');
    expect(readFileSync(path.join(root, REGISTRY)).equals(before)).toBe(true);
    expect(readdirSync(path.join(root, '.agents/findings'))).toEqual(['registry.jsonl']);
  });
});

if (!isRoot) {
  describe('a full disk (tmpfs)', () => {
    it.skip('needs root to mount a tmpfs', () => undefined);
  });
  console.log('disk-full test skipped: not running as root (mounting a tmpfs needs root)');
}
