/**
 * `findings init` (issue 4): one-line husky hook files, `.gitattributes` lines, and the empty
 * `.agents/` layout. Planning is pure (what each file should become); applying writes only what
 * changes, so a second run changes nothing. Existing hook files and unrelated attribute lines
 * are kept: our line is appended, never substituted.
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
}

/** The template texts shipped in templates/. */
export async function loadTemplates(): Promise<{ preCommit: string; preMergeCommit: string; prePush: string; gitattributes: string; agentsGitignore: string }> {
  const [preCommit, prePush, gitattributes, agentsGitignore, preMergeCommit] = await Promise.all(
    ['husky-pre-commit', 'husky-pre-push', 'gitattributes', 'agents-gitignore', 'husky-pre-merge-commit'].map((n) => readFile(packageFile('templates', n), 'utf8')),
  );
  return { preCommit: preCommit!, preMergeCommit: preMergeCommit!, prePush: prePush!, gitattributes: gitattributes!, agentsGitignore: agentsGitignore! };
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

export async function initRepository(root: string, env: NodeJS.ProcessEnv): Promise<InitResult> {
  const t = await loadTemplates();
  const steps: InitStep[] = [];
  const lines: string[] = [];
  for (const [rel, text] of [['.husky/pre-commit', t.preCommit], ['.husky/pre-merge-commit', t.preMergeCommit], ['.husky/pre-push', t.prePush]] as const) {
    const existing = await readOrNull(path.join(root, rel));
    steps.push(await writeText(root, rel, appendMissingLines(existing, text), existing !== null, 0o755));
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
  const husky = huskyBin(root);
  if (husky === null) {
    lines.push('husky is not installed: run `npm i -D husky && npx husky` to activate the hooks (add "prepare": "husky" to package.json so fresh clones get them)');
  } else if (env['HUSKY'] !== '0') {
    // husky 9 sets core.hooksPath to .husky/_ and writes its generated (git-ignored) shims there.
    const r = await run(process.execPath, [husky], { cwd: root, env }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? 'husky failed' }));
    const said = `${r.stdout}${r.stderr}`.trim();
    lines.push(said === '' ? 'husky: hooks installed (core.hooksPath = .husky/_)' : `husky: ${said}`);
  }
  if (!existsSync(path.join(root, 'node_modules', '.bin', 'findings'))) {
    lines.push('the hooks call `findings` from node_modules/.bin: install this package in the repository (`npm i -D findings-compiler`)');
  }
  return { steps, lines };
}
