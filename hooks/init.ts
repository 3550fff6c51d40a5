/**
 * `findings init`: husky hook files (pre-commit, pre-merge-commit, pre-push), `.gitattributes`
 * lines, and the empty `.agents/` layout. Planning is pure (what each file should become);
 * applying writes only what changes, so a second run changes nothing. Existing hook files and
 * unrelated attribute lines are kept: our lines are appended, never substituted. A hook that runs
 * today from `.git/hooks` or a foreign core.hooksPath is chained from `.husky/<name>` (hooks/chain.ts),
 * or init refuses (exit 1) before writing anything.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeFileAtomically } from '../src/fs/atomic.js';
import { isNotFound } from '../src/fs/atomic.js';
import { Layout } from '../src/layout.js';
import { packageFile } from '../src/package-root.js';
import { rootPrefix } from '../src/git/project-root.js';
import { chainLines, chainProblems, foreignHooks, shellQuote } from './chain.js';

const run = promisify(execFile);

export type StepAction = 'created' | 'updated' | 'unchanged';

export interface InitStep {
  readonly path: string;
  readonly action: StepAction;
}

export interface InitResult {
  readonly steps: InitStep[];
  /** Human lines (e.g. the husky install line). */
  readonly lines: string[];
  /** Why init refused to touch anything (exit 1); empty when it went ahead. */
  readonly refused: string[];
}

/** The hooks `findings init` installs, each calling `findings hook <name>`. */
export const INSTALLED_HOOKS = ['pre-commit', 'pre-merge-commit', 'pre-push'] as const;
export type InstalledHook = (typeof INSTALLED_HOOKS)[number];

/** What earlier versions of init wrote; replaced by the current lines rather than run twice. */
const LEGACY_LINES: Record<string, string> = { 'pre-commit': 'findings hook pre-commit', 'pre-push': 'findings hook pre-push "$@"' };

/** The template texts shipped in templates/. */
export async function loadTemplates(): Promise<{
  hooks: Record<InstalledHook, string>;
  preCommit: string;
  prePush: string;
  gitattributes: string;
  agentsGitignore: string;
}> {
  const names = [...INSTALLED_HOOKS.map((h) => `husky-${h}`), 'gitattributes', 'agents-gitignore'];
  const texts = await Promise.all(names.map((n) => readFile(packageFile('templates', n), 'utf8')));
  const hooks = Object.fromEntries(INSTALLED_HOOKS.map((h, i) => [h, texts[i]!])) as Record<InstalledHook, string>;
  return { hooks, preCommit: hooks['pre-commit'], prePush: hooks['pre-push'], gitattributes: texts[3]!, agentsGitignore: texts[4]! };
}

/**
 * The next text of `.husky/<name>`, or null when nothing changes. Pure. Keeps every existing line
 * except a legacy line of ours; chain lines go before our first line (so a chained pre-push hook
 * reads git's stdin first), our missing lines at the end.
 */
export function hookScript(existing: string | null, ours: string, chain: readonly string[], legacy?: string): string | null {
  const lines = (existing ?? '').split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const kept = lines.filter((l) => legacy === undefined || l.trim() !== legacy);
  const have = new Set(kept.map((l) => l.trim()));
  const ourLines = ours.split('\n').filter((l) => l.trim() !== '');
  const missingChain = chain.filter((l) => !have.has(l.trim()));
  const firstOurs = kept.findIndex((l) => ourLines.includes(l.trim()));
  const next = [...kept];
  next.splice(firstOurs === -1 ? next.length : firstOurs, 0, ...missingChain);
  next.push(...ourLines.filter((l) => !have.has(l.trim())));
  const text = next.length === 0 ? '' : `${next.join('\n')}\n`;
  return text === (existing ?? null) ? null : text;
}

/** Lines of `wanted` missing from `existing`, appended (null when nothing is missing). Pure. */
export function appendMissingLines(existing: string | null, wanted: string): string | null {
  const have = new Set((existing ?? '').split(/\r?\n/).map((l) => l.trim()));
  const missing = wanted.split('\n').filter((l) => l.trim() !== '' && !have.has(l.trim()));
  if (missing.length === 0) return null;
  const base = existing === null || existing === '' ? '' : existing.endsWith('\n') ? existing : `${existing}\n`;
  return `${base}${missing.join('\n')}\n`;
}

/** Keeps lock files and interrupted writes' temp files out of commits. */
export const AGENTS_GITIGNORE = '.agents/.gitignore';

/** The layout folders `init` creates, each kept in git by a `.gitkeep` while empty. */
export const LAYOUT_DIRS = [Layout.findingsDir, Layout.constraintsDir, Layout.reviewsDir, Layout.tasksDir] as const;

async function readOrNull(abs: string): Promise<string | null> {
  try {
    return await readFile(abs, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

async function writeText(root: string, rel: string, next: string | null, existed: boolean, mode?: number): Promise<InitStep> {
  const abs = path.join(root, rel);
  let action: StepAction = 'unchanged';
  if (next !== null) {
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFileAtomically(abs, next);
    action = existed ? 'updated' : 'created';
  }
  if (mode !== undefined) {
    const st = await stat(abs);
    if ((st.mode & 0o111) !== 0o111) {
      await chmod(abs, (st.mode & 0o777) | mode);
      if (action === 'unchanged') action = 'updated';
    }
  }
  return { path: rel, action };
}

/** Where husky's bin is in this repository, or null when it is not installed. */
export function huskyBin(root: string): string | null {
  const bin = path.join(root, 'node_modules', 'husky', 'bin.js');
  return existsSync(bin) ? bin : null;
}

/**
 * A hook template's lines for a project root below the top level (`prefix` = `<dir>/`, git runs
 * hooks at the top level): the bin of the project's own node_modules first, then the top level's
 * (a workspace that hoists it), then the main worktree's project, and `--root <dir>` on the call
 * (docs/hooks.md, "A project below the git top level"). The template as it is at the top level. Pure.
 */
export function hookForRoot(template: string, prefix: string): string {
  if (prefix === '') return template;
  const dir = prefix.replace(/\/$/, '');
  return template
    .replace(
      'f=node_modules/.bin/findings;',
      `f=${shellQuote(`${dir}/node_modules/.bin/findings`)}; [ -x "$f" ] || f=node_modules/.bin/findings;`,
    )
    .replace('/../node_modules/.bin/findings"', `/../"${shellQuote(dir)}"/node_modules/.bin/findings"`)
    .replace(/("\$f" hook [a-z-]+)/, `$1 --root ${shellQuote(dir)}`);
}

/** The git top level of a project root whose prefix below it is `prefix`. Pure. */
export function topLevelOfRoot(root: string, prefix: string): string {
  return path.resolve(
    root,
    ...prefix
      .split('/')
      .filter((p) => p !== '')
      .map(() => '..'),
  );
}

export async function initRepository(root: string, env: NodeJS.ProcessEnv): Promise<InitResult> {
  const t = await loadTemplates();
  const steps: InitStep[] = [];
  const lines: string[] = [];
  // Hooks live at the top level, where git runs them and husky installs them; a project below it
  // keeps its own .gitattributes and .agents/ (docs/hooks.md, "A project below the git top level").
  const prefix = await rootPrefix(root);
  const top = topLevelOfRoot(root, prefix);
  const foreign = await foreignHooks(top);
  const refused = chainProblems(foreign);
  if (refused.length > 0) return { steps, lines, refused };
  const names = [...new Set<string>([...INSTALLED_HOOKS, ...(foreign?.names ?? [])])].sort();
  for (const name of names) {
    const rel = `.husky/${name}`;
    const existing = await readOrNull(path.join(top, rel));
    const ours = hookForRoot((t.hooks as Record<string, string>)[name] ?? '', prefix);
    const chain = foreign?.names.includes(name) ? chainLines(foreign, name) : [];
    const step = await writeText(top, rel, hookScript(existing, ours, chain, LEGACY_LINES[name]), existing !== null, 0o755);
    steps.push(prefix === '' ? step : { ...step, path: path.relative(root, path.join(top, rel)).split(path.sep).join('/') });
    if (chain.length > 0 && existing?.includes(chain[0]!) !== true)
      lines.push(`${foreign!.shown}/${name} keeps running: .husky/${name} calls it`);
  }
  const attrs = await readOrNull(path.join(root, '.gitattributes'));
  steps.push(await writeText(root, '.gitattributes', appendMissingLines(attrs, t.gitattributes), attrs !== null));
  const ignore = await readOrNull(path.join(root, AGENTS_GITIGNORE));
  steps.push(await writeText(root, AGENTS_GITIGNORE, appendMissingLines(ignore, t.agentsGitignore), ignore !== null));
  for (const dir of LAYOUT_DIRS) {
    const abs = path.join(root, dir);
    let entries: string[] = [];
    try {
      entries = await readdir(abs);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    const keep = `${dir}/.gitkeep`;
    if (entries.length === 0) steps.push(await writeText(root, keep, '', false));
    else steps.push({ path: entries.includes('.gitkeep') ? keep : dir, action: 'unchanged' });
  }
  const husky = huskyBin(root) ?? huskyBin(top);
  if (husky === null) {
    lines.push(
      'husky is not installed: run `npm i -D husky && npx husky` to activate the hooks (add "prepare": "husky" to package.json so fresh clones get them)',
    );
  } else if (env['HUSKY'] !== '0') {
    // husky 9 sets core.hooksPath to .husky/_ and writes its generated (git-ignored) shims there.
    const r = await run(process.execPath, [husky], { cwd: top, env }).catch((e: { stdout?: string; stderr?: string }) => ({
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? 'husky failed',
    }));
    const said = `${r.stdout}${r.stderr}`.trim();
    lines.push(said === '' ? 'husky: hooks installed (core.hooksPath = .husky/_)' : `husky: ${said}`);
  }
  if (![root, top].some((dir) => existsSync(path.join(dir, 'node_modules', '.bin', 'findings')))) {
    lines.push(
      'the hooks call node_modules/.bin/findings, which is missing: install findings-compiler ' +
        'in this project as its README shows (a tarball or a git URL), next to husky',
    );
  }
  return { steps, lines, refused: [] };
}
