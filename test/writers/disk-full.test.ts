/**
 * A real full disk: a small tmpfs (needs root to mount; skipped with a printed reason otherwise).
 * `findings add` of 40 entries that do not fit must exit 2, leave the registry byte for byte as it
 * was, and leave no temp file — write-file-atomic renamed a torn 4,096-byte file here and exited 0.
 * A compile's new folder published by its worker thread (compiler/write-changes.ts) fails the
 * same way on this side of the thread, leaving nothing behind.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Drift } from '../../compiler/diff.js';
import { writeChanges } from '../../compiler/write-changes.js';
import { WriteFailedError } from '../../src/fs/atomic.js';
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

  it("a compile's new folder published by the worker thread: the same error, no temp folder, no index", async () => {
    const root = mountTmpfs();
    if (root === null) return;
    mkdirSync(path.join(root, '.agents/findings'), { recursive: true });
    const outputs = new Map<string, string>();
    for (let i = 0; i < 8; i += 1) outputs.set(`.agents/planning-rules/r-${i}.md`, `${'rule text '.repeat(10_000)}\n`);
    outputs.set('.agents/findings/f-1.md', 'artifact\n');
    outputs.set('.agents/constraints/index.json', '{"constraints":[]}\n');
    const drift = [...outputs.keys()].map((p): Drift => ({ path: p, kind: 'missing' }));
    const error = await writeChanges(root, drift, outputs, { parallelFrom: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriteFailedError);
    expect((error as WriteFailedError).message).toMatch(
      /^cannot write \.agents\/planning-rules\/r-\d\.md \(ENOSPC: disk full\); it is unchanged$/,
    );
    expect(readdirSync(path.join(root, '.agents')).sort()).toEqual(['findings']);
    expect(existsSync(path.join(root, '.agents/constraints/index.json'))).toBe(false);
  });
});

if (!isRoot) {
  describe('a full disk (tmpfs)', () => {
    it.skip('needs root to mount a tmpfs', () => undefined);
  });
  console.log('disk-full test skipped: not running as root (mounting a tmpfs needs root)');
}
