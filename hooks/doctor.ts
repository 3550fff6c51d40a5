/**
 * `findings doctor`: what is missing or wrong in a repository's set-up — every hook that will not
 * run, and why: hooks not installed or not executable, core.hooksPath pointing nowhere (husky in a
 * linked worktree: the fix is the one command printed), no installed `findings` bin, `HUSKY=0`,
 * a `.git/hooks` file that core.hooksPath now hides; missing `.gitattributes` lines, an invalid
 * constraint index, and compiled outputs older than their sources. Problems are diagnostics;
 * errors make the exit 1.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, sortDiagnostics, type Diagnostic } from '../src/diagnostics.js';
import { isNotFound } from '../src/fs/atomic.js';
import { gitConfig, hooksDir, isLinkedWorktree } from '../src/git/hooks.js';
import { parseConstraintSet } from '../src/constraints/constraint-set.js';
import { Layout } from '../src/layout.js';
import { displayPath } from '../src/paths.js';
import { worktreeFiles } from '../src/repo-files.js';
import { runGit } from '../src/git/core.js';
import { compiledDrift, FIX_COMMAND } from './compiler-link.js';
import { INSTALLED_HOOKS, loadTemplates } from './init.js';
import { isFindingSource } from './pre-commit.js';

async function readOrNull(abs: string): Promise<string | null> {
  try {
    return await readFile(abs, 'utf8');
  } catch (error) {
    if (isNotFound(error) || (error as { code?: string }).code === 'EISDIR') return null;
    throw error;
  }
}

async function isExecutable(abs: string): Promise<boolean | null> {
  try {
    return ((await stat(abs)).mode & 0o111) !== 0;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The main worktree's top folder (the common git dir's parent), or null. */
async function mainWorktree(root: string): Promise<string | null> {
  const r = await runGit(root, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  return r.code === 0 ? path.dirname(r.stdout.toString('utf8').trim()) : null;
}

export async function doctor(root: string, env: NodeJS.ProcessEnv = process.env): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const d = (file: string, rule: string, message: string, notes: string[] = [], severity: 'error' | 'warning' = 'error'): void => {
    out.push(diagnostic({ file, ruleId: `doctor/${rule}`, message, notes, severity }));
  };
  const configured = await gitConfig(root, 'core.hooksPath');
  const dir = await hooksDir(root);
  const shown = displayPath(root, dir);
  const husky = configured !== null && /(^|\/)\.husky\/_\/?$/.test(configured);
  let hooksOk = true;
  if (configured !== null && !existsSync(dir)) {
    hooksOk = false;
    const linked = await isLinkedWorktree(root);
    const main = linked ? await mainWorktree(root) : null;
    // husky from this checkout, else from the main worktree (a linked worktree has no node_modules): never npx, which may fetch.
    const huskyHere = path.join(root, 'node_modules', 'husky', 'bin.js');
    const huskyBin = existsSync(huskyHere) || main === null ? huskyHere : path.join(main, 'node_modules', 'husky', 'bin.js');
    d(configured, 'hooks-path', `core.hooksPath is "${configured}" but ${shown} does not exist, so git runs no hooks here`, [
      ...(linked ? ['this is a linked worktree: husky generates .husky/_ per checkout and git-ignores it'] : []),
      husky ? `fix: run \`node ${huskyBin}\` in ${root}` : 'fix: create the folder or `git config --unset core.hooksPath`',
    ]);
  }
  if (env['HUSKY'] === '0' && husky)
    d('.husky', 'husky-disabled', 'HUSKY=0 is set in this environment, so husky runs no hook', ['fix: unset HUSKY'], 'warning');
  // The hooks call node_modules/.bin/findings of this checkout, else of the main worktree.
  const main = await mainWorktree(root);
  const binHere = path.join(root, 'node_modules', '.bin', 'findings');
  if (!existsSync(binHere) && (main === null || !existsSync(path.join(main, 'node_modules', '.bin', 'findings')))) {
    d(
      'node_modules/.bin/findings',
      'bin-missing',
      'findings-compiler is not installed here (node_modules/.bin/findings), so every hook that calls it fails',
      ['fix: install findings-compiler in this project as its README shows (or `npm ci` when it is already in package.json)'],
    );
  }
  // Hooks in .git/hooks that core.hooksPath now hides, unless .husky/<name> calls them.
  const hidden = configured !== null ? await hiddenGitHooks(root) : [];
  for (const h of hidden) {
    const script = (await readOrNull(path.join(root, '.husky', h.name))) ?? '';
    if (!script.includes(`hooks/${h.name}`)) {
      d(
        h.shown,
        'hook-hidden',
        `${h.shown} will not run: core.hooksPath is "${configured}", so git ignores .git/hooks`,
        [`fix: call it from .husky/${h.name} (\`findings init\` does so for a hook that runs when it is run), or delete it`],
        'warning',
      );
    }
  }
  if (hooksOk) {
    for (const name of INSTALLED_HOOKS) {
      const abs = path.join(dir, name);
      const exec = await isExecutable(abs);
      const rel = displayPath(root, abs);
      if (exec === null) {
        d(rel, 'hook-missing', `the ${name} hook is not installed`, ['fix: `findings init` (with husky installed)']);
        continue;
      }
      if (!exec) {
        d(rel, 'hook-not-executable', `the ${name} hook is not executable, so git skips it`, [`fix: chmod +x ${rel}`]);
        continue;
      }
      // With husky the real script is .husky/<name>, run by husky's shim; without it, the hook file itself.
      const script = husky ? path.join(root, '.husky', name) : abs;
      const text = await readOrNull(script);
      if (text === null || !new RegExp(`(findings"?|"\\$f")\\s+hook\\s+${name}\\b`).test(text)) {
        d(displayPath(root, script), 'hook-not-calling', `the ${name} hook does not call \`findings hook ${name}\``, [
          'fix: `findings init`',
        ]);
      }
    }
  }
  const attrs = (await readOrNull(path.join(root, '.gitattributes'))) ?? '';
  const have = new Set(attrs.split(/\r?\n/).map((l) => l.trim()));
  const missing = (await loadTemplates()).gitattributes.split('\n').filter((l) => l !== '' && !have.has(l));
  if (missing.length > 0)
    d(
      '.gitattributes',
      'gitattributes',
      `missing line${missing.length === 1 ? '' : 's'}: ${missing.join(' | ')}`,
      ['fix: `findings init`'],
      'warning',
    );

  const texts = {
    index: await readOrNull(path.join(root, Layout.constraintIndex)),
    extended: await readOrNull(path.join(root, Layout.extendedIndex)),
  };
  const parsed = parseConstraintSet(texts);
  if (!parsed.ok) out.push(...parsed.diagnostics);
  const files = worktreeFiles(root);
  if ([...(await files.list(Layout.findingsDir)), ...(await files.list(Layout.fixturesDir))].some(isFindingSource)) {
    const drift = await compiledDrift(files);
    for (const e of drift.drift) {
      d(e.path, 'drift', `compiled output is ${e.kind}: the constraint index and compiled rules are older than their sources`, [
        `fix: ${FIX_COMMAND}`,
      ]);
    }
  }
  return sortDiagnostics(out);
}

/** Executable files in the common `.git/hooks` (not samples). */
async function hiddenGitHooks(root: string): Promise<{ name: string; shown: string }[]> {
  const common = await runGit(root, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (common.code !== 0) return [];
  const dir = path.join(common.stdout.toString('utf8').trim(), 'hooks');
  const out: { name: string; shown: string }[] = [];
  let names: string[] = [];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return [];
  }
  for (const name of names) {
    if (name.endsWith('.sample') || name.startsWith('.')) continue;
    const st = await stat(path.join(dir, name)).catch(() => null);
    if (st?.isFile() && (st.mode & 0o111) !== 0) out.push({ name, shown: `.git/hooks/${name}` });
  }
  return out;
}
