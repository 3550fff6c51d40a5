import { spawn } from 'node:child_process';
import { symlinkSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeRelative, relativePathProblem, resolveInsideRoot } from '../../src/paths.js';
import { tempDir } from '../helpers/repo.js';

describe('relativePathProblem', () => {
  it.each([
    ['a/b.ts', null],
    ['./a.py', null],
    ['foo..bar.py', null],
    ['a/../b', /\.\./],
    ['..', /\.\./],
    ['/etc/passwd', /absolute/],
    ['C:\\x', /backslash|absolute/],
    ['C:/x', /absolute/],
    ['\\\\server\\share', /backslash/],
    ['', /empty/],
    ['a\0b', /NUL/],
  ])('%j', (p, expected) => {
    const problem = relativePathProblem(p);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
  it('normalises ./ and doubled separators', () => {
    expect(normalizeRelative('./a//b/./c')).toBe('a/b/c');
  });
});

describe('resolveInsideRoot', () => {
  it('refuses a symlink that leaves the root', () => {
    const root = tempDir();
    const outside = tempDir();
    mkdirSync(path.join(root, 'f'));
    symlinkSync(outside, path.join(root, 'f', 'out'));
    expect(resolveInsideRoot(root, 'f/out')).toEqual({ problem: 'leaves the repository through a symlink' });
    expect(resolveInsideRoot(root, 'f/missing')).toEqual({ abs: path.join(root, 'f/missing') });
  });
});

describe('resolveInsideRoot under concurrent writers', () => {
  it('a file another process removes between two looks (a released lock) is never "a symlink that does not resolve"', async () => {
    const root = tempDir('findings-race-');
    mkdirSync(path.join(root, '.agents'));
    const lock = path.join(root, '.agents', 'registry.lock');
    // Another process creates and removes the lock as fast as it can, as lock holders do.
    const churn = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); for (;;) { fs.writeFileSync(${JSON.stringify(lock)}, 'x'); fs.rmSync(${JSON.stringify(lock)}, { force: true }); }`,
      ],
      { stdio: 'ignore' },
    );
    try {
      await new Promise((r) => setTimeout(r, 200));
      const problems = new Set<string>();
      const until = Date.now() + 1500;
      while (Date.now() < until) {
        const r = resolveInsideRoot(root, '.agents/registry.lock');
        if ('problem' in r) problems.add(r.problem);
      }
      expect([...problems]).toEqual([]);
    } finally {
      churn.kill('SIGKILL');
    }
  });
});
