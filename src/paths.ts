/** Path rules: every path a user or a finding names must stay inside the repository. */
import { lstatSync, realpathSync } from 'node:fs';
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
 * Resolves a repository-relative path to an absolute one and checks, through symlinks, that it
 * stays inside `root`: the path itself when it exists (a symlinked file is followed; one that does
 * not resolve is refused, since a write could land anywhere), else its nearest existing ancestor
 * (a missing file's folder — or the folder `mkdir -p` would create it under — must be inside).
 * Every writer calls this before it writes (src/fs/repo-write.ts). Returns a problem string
 * instead of throwing.
 */
export function resolveInsideRoot(root: string, rel: string): { abs: string } | { problem: string } {
  const problem = relativePathProblem(rel);
  if (problem) return { problem };
  const abs = path.join(root, normalizeRelative(rel));
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return { problem: 'repository root cannot be resolved' };
  }
  let probe = abs;
  let vanished = 0;
  for (;;) {
    let exists = true;
    try {
      lstatSync(probe);
    } catch {
      exists = false;
    }
    if (exists) {
      let real: string | null = null;
      try {
        real = realpathSync(probe);
      } catch {
        // Another process removed it between the two looks (a lock released, a file renamed
        // over): only a path that is still there as a symlink is one that does not resolve.
        if (isSymlink(probe)) {
          return {
            problem:
              probe === abs
                ? 'is a symlink that does not resolve'
                : `is under ${displayPath(root, probe)}, a symlink that does not resolve`,
          };
        }
        // Look again; a path that keeps coming and going is judged by its folder, as one not there.
        if ((vanished += 1) <= MAX_VANISHED) continue;
      }
      if (real !== null) return isInside(realRoot, real) ? { abs } : { problem: 'leaves the repository through a symlink' };
    }
    const parent = path.dirname(probe);
    if (parent === probe) return { abs };
    probe = parent;
  }
}

/** How many times a path may vanish under resolveInsideRoot before it gives up. */
const MAX_VANISHED = 16;

/** True when `p` is a symlink now (false when it is anything else or gone). */
function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Whether the real path `real` is `realRoot` or below it. */
function isInside(realRoot: string, real: string): boolean {
  const back = path.relative(realRoot, real);
  return back === '' || (back !== '..' && !back.startsWith(`..${path.sep}`) && !path.isAbsolute(back));
}

/** Repository-relative display path of an absolute path. */
export function displayPath(root: string, abs: string): string {
  const rel = path.relative(root, abs);
  return rel === '' ? '.' : toPosix(rel);
}

declare const topLevelPathBrand: unique symbol;
declare const rootPathBrand: unique symbol;

/**
 * A path relative to the git work tree's top level, as git prints it (`diff --raw`, a patch's
 * `+++ b/` line, `ls-files --full-name`, `ls-tree --full-tree`, `grep --full-name`, the index
 * file). To the type checker it is not a string: it cannot be compared with, looked up as, or
 * passed as a root-relative path until src/git converts it (`rootPathOf`, src/git/project-root.ts).
 * The project root (the folder holding `.agents/`) may lie below the top level, as a monorepo's
 * package does (ARCHITECTURE.md, "Paths").
 */
export type TopLevelPath = { readonly [topLevelPathBrand]: true };

/**
 * A path relative to the project root, `/`-separated: what every path outside src/git is. src/git
 * returns this type for what it converted from git's top-level paths; a plain string is taken as
 * root-relative wherever a path goes in.
 */
export type RootPath = string & { readonly [rootPathBrand]: true };
