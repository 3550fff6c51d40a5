/**
 * Where an ordinary repository is, read from its files instead of asking `git rev-parse`
 * (docs/hooks.md "Speed": each git process costs a commit a fork of node and git's own start).
 * Only for the plain case, where git's own discovery can give no other answer: the folder holds
 * a `.git` folder (not a linked worktree's or a submodule's `.git` file), no environment variable
 * points git elsewhere, and the repository's config neither moves the work tree nor includes
 * other files. Anything else is null, and the caller asks git, as before.
 */
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Variables that change which repository, work tree or config git uses. */
const RELOCATING_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
] as const;

export interface LocalRepository {
  /** The work tree's top level: the folder itself. */
  readonly topLevel: string;
  /** Its git folder, `<topLevel>/.git`. */
  readonly gitDir: string;
  /**
   * The length of its object names in bytes (20: SHA-1, 32: SHA-256) when its index, refs and
   * objects are in the formats src/git/git-index.ts and src/git/local-head.ts read; else null.
   */
  readonly hashBytes: 20 | 32 | null;
}

/**
 * True when a repository config could make git place the work tree elsewhere or read more
 * config: `core.worktree`, `core.bare` other than false, `[include]`/`[includeIf]`. Pure.
 */
export function configRelocates(config: string): boolean {
  if (/^\s*\[\s*include/im.test(config)) return true;
  if (/^\s*worktree\s*(?:=|$)/im.test(config)) return true;
  for (const m of config.matchAll(/^\s*bare\s*(?:=\s*(.*))?$/gim)) {
    if ((m[1] ?? '').trim().toLowerCase() !== 'false') return true;
  }
  return false;
}

/**
 * The length of object names (20 or 32 bytes) a repository config declares, when its
 * `[extensions]` name nothing but the object format and per-worktree config; else null (the
 * reftable ref backend, say, keeps HEAD where src/git/local-head.ts does not look). Pure.
 */
export function objectHashBytes(config: string): 20 | 32 | null {
  let section = '';
  let bytes: 20 | 32 = 20;
  for (const raw of config.split('\n')) {
    let line = raw.trim();
    const header = /^\[([^\]]*)\](.*)$/.exec(line);
    if (header) {
      section = header[1]!.trim().toLowerCase();
      line = header[2]!.trim();
    }
    if (!/^extensions(?:$|[\s"])/.test(section) || line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*([A-Za-z0-9]+)\s*$/.exec(line);
    if (entry === null || section !== 'extensions') return null;
    const key = entry[1]!.toLowerCase();
    const value = entry[2]!.toLowerCase();
    if (key === 'objectformat' && (value === 'sha1' || value === 'sha256')) bytes = value === 'sha1' ? 20 : 32;
    else if (key !== 'worktreeconfig') return null;
  }
  return bytes;
}

/** `cwd` as the top level of an ordinary repository, when that is certain; else null. */
export function localRepository(cwd: string, env: NodeJS.ProcessEnv): LocalRepository | null {
  if (process.platform === 'win32' || !path.isAbsolute(cwd)) return null;
  if (RELOCATING_ENV.some((name) => env[name] !== undefined)) return null;
  const gitDir = path.join(cwd, '.git');
  let config: string;
  try {
    if (!lstatSync(gitDir).isDirectory()) return null;
    // A per-worktree config (extensions.worktreeConfig) may set core.worktree too.
    if (existsSync(path.join(gitDir, 'config.worktree'))) return null;
    config = readFileSync(path.join(gitDir, 'config'), 'utf8');
  } catch {
    return null;
  }
  if (configRelocates(config)) return null;
  return { topLevel: cwd, gitDir, hashBytes: objectHashBytes(config) };
}
