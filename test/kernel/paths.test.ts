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
