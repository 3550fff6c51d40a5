/** Path rules: every path a user or a finding names must stay inside the repository. */
import { realpathSync } from 'node:fs';
import path from 'node:path';

/** Converts an OS path to the `/`-separated form used in all output. */
export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** Why a repository-relative path is unacceptable, or null when it is fine. Pure. */
export function relativePathProblem(p: string): string | null {
  if (p === '') return 'is empty';
  if (p.includes('\0')) return 'contains a NUL byte';
  if (p.includes('\\')) return 'contains a backslash (use / separators)';
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return 'is absolute (use a path relative to the repository root)';
  if (p.split('/').some((seg) => seg === '..')) return 'contains a ".." segment';
  return null;
}

/** Normalises `./a//b` to `a/b`; assumes relativePathProblem(p) is null. */
export function normalizeRelative(p: string): string {
  return p
    .split('/')
    .filter((seg) => seg !== '' && seg !== '.')
    .join('/');
}

/**
 * Resolves a repository-relative path to an absolute one and checks, through symlinks,
 * that it stays inside `root`. Returns a problem string instead of throwing.
 */
export function resolveInsideRoot(root: string, rel: string): { abs: string } | { problem: string } {
  const problem = relativePathProblem(rel);
  if (problem) return { problem };
  const abs = path.join(root, normalizeRelative(rel));
  let realRoot: string;
  let realAbs: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return { problem: 'repository root cannot be resolved' };
  }
  try {
    realAbs = realpathSync(abs);
  } catch {
    return { abs };
  }
  const back = path.relative(realRoot, realAbs);
  if (back.startsWith('..') || path.isAbsolute(back)) return { problem: 'leaves the repository through a symlink' };
  return { abs };
}

/** Repository-relative display path of an absolute path. */
export function displayPath(root: string, abs: string): string {
  const rel = path.relative(root, abs);
  return rel === '' ? '.' : toPosix(rel);
}
