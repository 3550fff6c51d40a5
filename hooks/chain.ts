/**
 * Hooks that run today and would stop running once husky points core.hooksPath at .husky/_
 * (docs/hooks.md "findings init"): executable files in `.git/hooks` (when core.hooksPath is
 * unset) or in a foreign core.hooksPath folder. `findings init` keeps each running by calling it
 * from `.husky/<name>`; where that cannot work it refuses, naming the hook and the ways forward.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { runGit } from '../src/git/core.js';

/** The hooks husky 9 installs a shim for (node_modules/husky/index.js): only these can be chained. */
export const HUSKY_HOOKS: readonly string[] = [
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-rebase',
  'post-rewrite',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-auto-gc',
];

/** husky 9's `.husky/_`, or husky 8's `.husky` (whose scripts husky 9 runs from `.husky/_` shims): not foreign. */
export const isHuskyHooksPath = (value: string): boolean => /(^|\/)\.husky(\/_)?\/?$/.test(value);

export interface ForeignHooks {
  /** The folder as shown to the user (relative to the root when inside it). */
  readonly shown: string;
  /** Absolute folder. */
  readonly dir: string;
  /** A shell word naming the folder from the repository top (where git runs hooks), or null when it lies outside. */
  readonly shellDir: string | null;
  /** Executable hook files in it, sorted. */
  readonly names: readonly string[];
}

async function gitOut(root: string, args: string[]): Promise<string | null> {
  const r = await runGit(root, args);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** A POSIX shell word for any text (single quotes). Pure. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The hooks git runs now from somewhere other than husky's folder, or null when there are none. */
export async function foreignHooks(root: string): Promise<ForeignHooks | null> {
  const configured = await gitOut(root, ['config', '--get', 'core.hooksPath']);
  if (configured !== null && configured !== '' && isHuskyHooksPath(configured)) return null;
  const common = await gitOut(root, ['rev-parse', '--git-common-dir']);
  if (common === null) return null;
  let dir: string;
  let shellDir: string | null;
  if (configured !== null && configured !== '') {
    dir = path.resolve(root, configured.replace(/^~(?=\/|$)/, process.env['HOME'] ?? '~'));
    const rel = path.relative(root, dir);
    shellDir = rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? null : shellQuote(`./${rel.split(path.sep).join('/')}`);
  } else {
    dir = path.join(path.resolve(root, common), 'hooks');
    // Resolved when the hook runs, so it also works from a linked worktree.
    shellDir = '"$(git rev-parse --git-common-dir)/hooks"';
  }
  const names: string[] = [];
  let entries: string[] = [];
  try {
    entries = await readdir(dir);
  } catch {
    return null;
  }
  for (const name of entries.sort()) {
    if (name.endsWith('.sample') || name.startsWith('.')) continue;
    const st = await stat(path.join(dir, name)).catch(() => null);
    if (st?.isFile() && (st.mode & 0o111) !== 0) names.push(name);
  }
  if (names.length === 0) return null;
  const rel = path.relative(root, dir);
  const shown = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : dir;
  return { shown, dir, shellDir, names };
}

/** The lines of `.husky/<name>` that run the foreign hook (before ours, so it sees git's stdin first). Pure. */
export function chainLines(foreign: ForeignHooks, name: string): string[] {
  const call = `${foreign.shellDir}/${name}`.replace(/^'(.*)'\/(.*)$/, `'$1/$2'`);
  const comment = `# findings init: ${foreign.shown}/${name} ran before core.hooksPath moved to .husky/_; it keeps running from here`;
  if (name !== 'pre-push') return [comment, `${call} "$@"`];
  // pre-push reads the pushed refs on stdin, and so does our hook after it: replay them from a file.
  return [
    comment,
    `findings_refs=$(mktemp); cat >"$findings_refs"; ${call} "$@" <"$findings_refs" || { ` +
      `s=$?; rm -f "$findings_refs"; exit $s; }; exec <"$findings_refs"; rm -f "$findings_refs"`,
  ];
}

/** Why init must refuse (one message per problem), or [] when every foreign hook can be chained. Pure. */
export function chainProblems(foreign: ForeignHooks | null): string[] {
  if (foreign === null) return [];
  if (foreign.shellDir === null) {
    return foreign.names.map(
      (n) =>
        `${foreign.dir}/${n} runs today (core.hooksPath = ${foreign.dir}) but lies outside this repository, so a committed .husky/${n} cannot call it; ` +
        `either move those hooks into the repository and point core.hooksPath there (\`git config core.hooksPath <folder-in-repo>\`), ` +
        `or stop using them (\`git config --unset core.hooksPath\`), then run \`findings init\` again`,
    );
  }
  return foreign.names
    .filter((n) => !HUSKY_HOOKS.includes(n))
    .map(
      (n) =>
        `${foreign.shown}/${n} runs today, but husky installs no ${n} hook, so it would stop running once core.hooksPath moves to .husky/_; ` +
        `either keep your hooks and set husky aside (do not run \`findings init\`; ` +
        `add \`node_modules/.bin/findings hook pre-commit\` to ${foreign.shown}/pre-commit yourself), ` +
        `or remove ${foreign.shown}/${n}, then run \`findings init\` again`,
    );
}
