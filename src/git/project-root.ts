/**
 * Where the project root lies below the git top level, and the one place a top-level path and a
 * root-relative path are converted into each other (ARCHITECTURE.md, "Paths"). The project root
 * is the folder holding `.agents/` (a monorepo's package, `examples/demo`); git prints paths from
 * the top level of the work tree whatever folder it runs in, and names `<rev>:<path>` from there
 * too. Every git process runs in the project root; what it prints is converted here, and a path
 * outside the project root is not the project's (it is left out).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { RootPath, TopLevelPath } from '../paths.js';
import { runGit } from './core.js';

/**
 * The project root's place below the top level: '' at the top level, else `<dir>/…/` with a
 * final slash (git's `rev-parse --show-prefix`). Keyed by the absolute root every command passes
 * down; filled by whoever asked git already (the commit hook's probe, the CLI's root resolution).
 */
const prefixes = new Map<string, Promise<string>>();

/** Records what a caller already learnt from git about `root`'s prefix. */
export function knowPrefix(root: string, prefix: string): void {
  prefixes.set(root, Promise.resolve(prefix));
}

/** The prefix of `root` below its top level ('' at the top level, or when git cannot tell: the git process that follows reports why). */
export function rootPrefix(root: string): Promise<string> {
  let known = prefixes.get(root);
  if (known === undefined) {
    known = runGit(root, ['rev-parse', '--show-prefix']).then(
      (r) => (r.code === 0 ? r.stdout.toString('utf8').trim() : ''),
      () => '',
    );
    prefixes.set(root, known);
  }
  return known;
}

/** A path as git printed it, typed as such: only src/git's parsers call this. */
export const asTopLevel = (p: string): TopLevelPath => p as unknown as TopLevelPath;

/** The text of a top-level path, for src/git's own use (git arguments, index-file lookups). */
export const topLevelText = (p: TopLevelPath): string => p as unknown as string;

/** The root-relative path of a top-level one, or null when it lies outside the project root. Pure. */
export function rootPathOf(p: TopLevelPath, prefix: string): RootPath | null {
  const text = topLevelText(p);
  if (prefix === '') return text as RootPath;
  return text.startsWith(prefix) && text.length > prefix.length ? (text.slice(prefix.length) as RootPath) : null;
}

/** The top-level path of a root-relative one. Pure. */
export function topLevelOf(p: string, prefix: string): TopLevelPath {
  return asTopLevel(`${prefix}${p}`);
}

/**
 * An object name for git with its path made top-level: `<rev>:<path>` names a root-relative path
 * (`:<path>` the index's stage 0); a name without a colon (an object id, `HEAD^{commit}`) is
 * returned as it is. Pure.
 */
export function gitObjectName(name: string, prefix: string): string {
  if (prefix === '') return name;
  const colon = name.indexOf(':');
  return colon === -1 ? name : `${name.slice(0, colon + 1)}${prefix}${name.slice(colon + 1)}`;
}

/** The folder's own `.agents/` makes it a project root (docs/hooks.md, "A project below the git top level"). */
function holdsProject(dir: string): boolean {
  try {
    return statSync(path.join(dir, '.agents')).isDirectory();
  } catch {
    return false;
  }
}

/** Where a command run in `cwd` works: its project root and that root's prefix below the top level. */
export interface ProjectRoot {
  readonly root: string;
  readonly prefix: string;
}

/**
 * The project root of `cwd`: the nearest folder from `cwd` up to the git top level that holds
 * `.agents/`, else the top level; null outside a work tree. One `rev-parse`; the prefix is known
 * from then on.
 */
export async function findProjectRoot(cwd: string): Promise<ProjectRoot | null> {
  const r = await runGit(cwd, ['rev-parse', '--show-toplevel', '--show-prefix']).catch(() => null);
  if (r?.code !== 0) return null;
  const [top = '', cwdPrefix = ''] = r.stdout.toString('utf8').split('\n');
  if (top === '') return null;
  const parts = cwdPrefix.split('/').filter((p) => p !== '');
  for (let n = parts.length; n > 0; n -= 1) {
    const dir = path.join(top, ...parts.slice(0, n));
    if (holdsProject(dir)) return remembered(dir, `${parts.slice(0, n).join('/')}/`);
  }
  return remembered(top, '');
}

/** The prefix of a root a caller named (`--root`), asked once; null outside a work tree. */
export async function namedProjectRoot(root: string): Promise<ProjectRoot | null> {
  const r = await runGit(root, ['rev-parse', '--show-toplevel', '--show-prefix']).catch(() => null);
  if (r?.code !== 0) return null;
  const [top = '', prefix = ''] = r.stdout.toString('utf8').split('\n');
  return top === '' ? null : remembered(root, prefix);
}

function remembered(root: string, prefix: string): ProjectRoot {
  knowPrefix(root, prefix);
  return { root, prefix };
}
