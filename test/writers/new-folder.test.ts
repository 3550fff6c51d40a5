/**
 * A folder that does not exist yet is published whole (src/fs/new-folder.ts): every file is
 * written into a fresh temp folder beside it, then ONE rename makes the folder appear. A failure or
 * a crash before that rename leaves no folder at all, never a partial one; the temp folder is
 * removed on failure and swept by the next run after a crash. System calls are injected as in
 * test/kernel/atomic.test.ts; one test kills a real process before the rename.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodeWriteOps, WriteFailedError, type WriteOps } from '../../src/fs/atomic.js';
import { sweepTempFolders, TEMP_FOLDER, writeNewFolderSync } from '../../src/fs/new-folder.js';
import { PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

const fail = (code: string): Error => Object.assign(new Error(code), { code });

const FILES: [string, string][] = [
  ['a.md', 'first\n'],
  ['b.md', `${'second '.repeat(2000)}\n`],
  ['c.md', ''],
];

/** Every rename the writer asks for, in order (`[from, to]`, relative to `base`). */
function counting(base: string): { ops: WriteOps; renames: [string, string][] } {
  const renames: [string, string][] = [];
  const ops: WriteOps = {
    ...nodeWriteOps,
    rename: (from, to) => {
      renames.push([path.relative(base, from), path.relative(base, to)]);
      nodeWriteOps.rename(from, to);
    },
  };
  return { ops, renames };
}

describe('publishing a new folder with one rename', () => {
  it('writes every file into a temp folder beside the target, then renames that folder once', () => {
    const parent = tempDir();
    const target = path.join(parent, 'planning-rules');
    const { ops, renames } = counting(parent);
    expect(writeNewFolderSync(target, FILES, { ops })).toBe(true);
    expect(renames).toHaveLength(1);
    const [from, to] = renames[0]!;
    expect(to).toBe('planning-rules');
    expect(from).toMatch(TEMP_FOLDER);
    expect(path.dirname(from)).toBe('.');
    expect(readdirSync(target).sort()).toEqual(['a.md', 'b.md', 'c.md']);
    for (const [name, data] of FILES) expect(readFileSync(path.join(target, name), 'utf8')).toBe(data);
    expect(readdirSync(parent)).toEqual(['planning-rules']);
  });

  it('gives the folder and its files the modes a plain mkdir and an atomic write give', () => {
    const parent = tempDir();
    const plain = path.join(parent, 'plain');
    mkdirSync(plain);
    writeFileSync(path.join(plain, 'a.md'), 'x', { mode: 0o666 });
    const target = path.join(parent, 'published');
    writeNewFolderSync(target, FILES);
    expect(statSync(target).mode).toBe(statSync(plain).mode);
    expect(statSync(path.join(target, 'a.md')).mode).toBe(statSync(path.join(plain, 'a.md')).mode);
  });

  it('a full disk half-way: WriteFailedError naming the file, no folder, no temp folder', () => {
    const parent = tempDir();
    const target = path.join(parent, 'pre-mortem-checks');
    let writes = 0;
    const ops: WriteOps = {
      ...nodeWriteOps,
      write: (fd, buf, off, len) => {
        writes += 1;
        if (writes === 2) throw fail('ENOSPC');
        return nodeWriteOps.write(fd, buf, off, len);
      },
    };
    let error: unknown;
    try {
      writeNewFolderSync(target, FILES, { ops, display: '.agents/pre-mortem-checks' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WriteFailedError);
    expect((error as Error).message).toBe('cannot write .agents/pre-mortem-checks/b.md (ENOSPC: disk full); it is unchanged');
    expect(readdirSync(parent)).toEqual([]);
  });

  it('a file whose size the file system reports short is never published', () => {
    const parent = tempDir();
    const target = path.join(parent, 'out');
    const ops: WriteOps = { ...nodeWriteOps, size: () => 1 };
    expect(() => writeNewFolderSync(target, FILES, { ops })).toThrow(WriteFailedError);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('a crash of the rename itself (an exception) leaves no folder and no temp folder', () => {
    const parent = tempDir();
    const ops: WriteOps = {
      ...nodeWriteOps,
      rename: () => {
        throw new Error('killed before rename');
      },
    };
    expect(() => writeNewFolderSync(path.join(parent, 'out'), FILES, { ops })).toThrow('killed before rename');
    expect(readdirSync(parent)).toEqual([]);
  });

  it('a folder that appeared meanwhile with files in it is left alone: false, nothing written, no temp folder', () => {
    const parent = tempDir();
    const target = path.join(parent, 'out');
    const ops: WriteOps = {
      ...nodeWriteOps,
      rename: (from, to) => {
        mkdirSync(to);
        writeFileSync(path.join(to, 'theirs.md'), 'theirs\n');
        nodeWriteOps.rename(from, to);
      },
    };
    expect(writeNewFolderSync(target, FILES, { ops })).toBe(false);
    expect(readdirSync(parent)).toEqual(['out']);
    expect(readdirSync(target)).toEqual(['theirs.md']);
  });

  it('refuses names that are not plain file names, before creating anything', () => {
    const parent = tempDir();
    for (const bad of ['../escape.md', 'sub/a.md', '', '.', '..']) {
      expect(() => writeNewFolderSync(path.join(parent, 'out'), [[bad, 'x']])).toThrow(/plain file name/);
    }
    expect(readdirSync(parent)).toEqual([]);
  });

  it('a process killed before the rename leaves only the temp folder, which the sweep removes', () => {
    const parent = tempDir();
    const target = path.join(parent, 'planning-rules');
    // A real SIGKILL: no exception handler, finally block or exit hook runs.
    const dist = (rel: string): string => pathToFileURL(path.join(PACKAGE_ROOT, 'dist/src/fs', rel)).href;
    const script = [
      `import { nodeWriteOps } from ${JSON.stringify(dist('atomic.js'))};`,
      `import { writeNewFolderSync } from ${JSON.stringify(dist('new-folder.js'))};`,
      'const ops = { ...nodeWriteOps, rename: () => process.kill(process.pid, "SIGKILL") };',
      `writeNewFolderSync(${JSON.stringify(target)}, [["a.md", "a"], ["b.md", "b"]], { ops });`,
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.signal, r.stderr).toBe('SIGKILL');
    expect(existsSync(target)).toBe(false);
    const left = readdirSync(parent);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(TEMP_FOLDER);
    expect(readdirSync(path.join(parent, left[0]!)).sort()).toEqual(['a.md', 'b.md']);
    expect(sweepTempFolders(parent)).toEqual(left);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('the sweep removes a symlink named like a temp folder without following it, and leaves other names', () => {
    const parent = tempDir();
    const outside = tempDir('findings-outside-');
    writeFileSync(path.join(outside, 'victim.md'), 'outside\n');
    symlinkSync(outside, path.join(parent, '.planning-rules.findings-999-1.tmpdir'));
    mkdirSync(path.join(parent, '.planning-rules.findings-999-2.tmpdir'));
    writeFileSync(path.join(parent, '.planning-rules.findings-999-2.tmpdir/half.md'), 'ha');
    mkdirSync(path.join(parent, 'planning-rules'));
    writeFileSync(path.join(parent, '.notes.tmpdir'), 'mine\n');
    expect(sweepTempFolders(parent)).toEqual(['.planning-rules.findings-999-1.tmpdir', '.planning-rules.findings-999-2.tmpdir']);
    expect(readdirSync(parent).sort()).toEqual(['.notes.tmpdir', 'planning-rules']);
    expect(readFileSync(path.join(outside, 'victim.md'), 'utf8')).toBe('outside\n');
    expect(lstatSync(path.join(parent, 'planning-rules')).isDirectory()).toBe(true);
  });

  it('the sweep of a folder that does not exist removes nothing', () => {
    expect(sweepTempFolders(path.join(tempDir(), 'nope'))).toEqual([]);
  });
});
