/**
 * `findings doctor` (issue 4): what is missing or wrong in a repository's set-up — hooks not
 * installed or not executable, core.hooksPath pointing nowhere (husky in a linked worktree,
 * pitfalls.md #12), missing `.gitattributes` lines, an invalid constraint index, and compiled
 * outputs older than their sources. Problems are diagnostics; errors make the exit 1.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, sortDiagnostics, type Diagnostic } from '../src/diagnostics.js';
import { isNotFound } from '../src/fs/atomic.js';
import { gitConfig, hooksDir, isLinkedWorktree } from '../src/git-hooks.js';
import { parseConstraintIndex } from '../src/constraints/index-file.js';
import { Layout } from '../src/layout.js';
import { displayPath } from '../src/paths.js';
import { worktreeFiles } from '../src/repo-files.js';
import { compiledDrift, FIX_COMMAND } from './compiler-link.js';
import { loadTemplates } from './init.js';
import { isFindingSource } from './pre-commit.js';

const HOOKS = ['pre-commit', 'pre-push'] as const;

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

export async function doctor(root: string): Promise<Diagnostic[]> {
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
    d(configured, 'hooks-path', `core.hooksPath is "${configured}" but ${shown} does not exist, so git runs no hooks here`, [
      ...(linked ? ['this is a linked worktree: husky generates .husky/_ per checkout and git-ignores it'] : []),
      husky ? 'fix: run `npx husky` (or `node_modules/.bin/husky`) in this checkout' : 'fix: create the folder or `git config --unset core.hooksPath`',
    ]);
  }
  if (hooksOk) {
    for (const name of HOOKS) {
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
      if (text === null || !text.includes(`findings hook ${name}`)) {
        d(displayPath(root, script), 'hook-not-calling', `the ${name} hook does not call \`findings hook ${name}\``, ['fix: `findings init`']);
      }
    }
  }
  const attrs = (await readOrNull(path.join(root, '.gitattributes'))) ?? '';
  const have = new Set(attrs.split(/\r?\n/).map((l) => l.trim()));
  const missing = (await loadTemplates()).gitattributes.split('\n').filter((l) => l !== '' && !have.has(l));
  if (missing.length > 0) d('.gitattributes', 'gitattributes', `missing line${missing.length === 1 ? '' : 's'}: ${missing.join(' | ')}`, ['fix: `findings init`'], 'warning');

  const indexText = await readOrNull(path.join(root, Layout.constraintIndex));
  if (indexText !== null) {
    const parsed = parseConstraintIndex(indexText);
    if (!parsed.ok) out.push(...parsed.diagnostics);
  }
  const files = worktreeFiles(root);
  if ([...(await files.list(Layout.findingsDir)), ...(await files.list(Layout.fixturesDir))].some(isFindingSource)) {
    const drift = await compiledDrift(files);
    for (const e of drift.drift) {
      d(e.path, 'drift', `compiled output is ${e.kind}: the constraint index and compiled rules are older than their sources`, [`fix: ${FIX_COMMAND}`]);
    }
  }
  return sortDiagnostics(out);
}
