/** A temp repository with husky and a `findings` shim installed, so `git commit` runs the real hook. */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, FIXTURES, fromTemplate, GIT_ENV, makeRepo, PACKAGE_ROOT, spawnFindings, type TestRepo } from '../helpers/repo.js';
import type { ConstraintEntry } from '../../src/types.js';
import { writtenEntry } from '../../src/constraints/shape.js';

/** Environment for git commands that run hooks: no leaked index or git dir from an outer hook. */
export function hookEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV, NO_COLOR: '1', ...extra };
  for (const k of ['GIT_INDEX_FILE', 'GIT_DIR', 'GIT_WORK_TREE', 'HUSKY', 'FINDINGS_SKIP']) if (!(k in extra)) delete env[k];
  return env;
}

/** Installs node_modules/husky (symlink) and node_modules/.bin/findings (shim), then runs `findings init`. */
export async function hookedRepo(files: Record<string, string> = {}, options: { commitLayout?: boolean } = {}): Promise<TestRepo> {
  // Prepared once per test file (test/helpers/repo.ts fromTemplate), then copied.
  const repo = await fromTemplate('hooked', async () => {
    const t = makeRepo({ '.gitignore': 'node_modules\n' });
    installTooling(t.root);
    const r = await spawnFindings(['init'], { cwd: t.root, env: hookEnv() });
    if (r.code !== 0) throw new Error(`findings init failed: ${r.stderr}`);
    return t;
  });
  for (const [rel, content] of Object.entries(files)) repo.write(rel, content);
  // Commit the layout init wrote, so each test stages only what it means to.
  if (options.commitLayout !== false) repo.commitAll('init');
  return repo;
}

export function installTooling(root: string): void {
  mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(path.join(PACKAGE_ROOT, 'node_modules', 'husky'), path.join(root, 'node_modules', 'husky'));
  const shim = path.join(root, 'node_modules', '.bin', 'findings');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(shim, 0o755);
}

/** `git commit` through the installed hook; returns git's exit status and output. */
export function commit(repo: TestRepo, args: string[], env: NodeJS.ProcessEnv = {}): { code: number; stdout: string; stderr: string } {
  return gitRun(repo, ['commit', '-q', '-m', 'test', ...args], env);
}

/**
 * Runs git with both streams captured. git sends a hook's stdout to its stderr, so `stdout`
 * here is both streams together (what the user sees in a terminal).
 */
export function gitRun(
  repo: TestRepo,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  input?: string,
): { code: number; stdout: string; stderr: string } {
  const r = spawnSync('git', args, { cwd: repo.root, env: hookEnv(env), encoding: 'utf8', input: input ?? '' });
  return { code: r.status ?? -1, stdout: `${r.stdout}${r.stderr}`, stderr: r.stderr };
}

export function fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, 'hooks', name), 'utf8');
}

/** A constraint index entry with sensible defaults. */
export function constraint(
  id: string,
  over: Partial<ConstraintEntry> & { pattern?: string; globs?: string[]; scope?: ConstraintEntry['applies_to']['scope'] } = {},
): ConstraintEntry {
  const status = over.status ?? 'active';
  const { pattern, globs, scope, ...rest } = over;
  return {
    id,
    finding_id: id.replace(/^c-/, ''),
    title: `Title of ${id}`,
    checklist_item: `Checklist of ${id}`,
    status,
    enforcement_mode: status === 'active' ? 'block' : status === 'shadow' ? 'warn' : 'off',
    source_artifact: `.agents/findings/${id.replace(/^c-/, '')}.md`,
    source: 'finding',
    compiled_at: '2026-01-01',
    file: '',
    applies_to: { scope: scope ?? 'files', path_globs: globs ?? ['**/*.js'] },
    detector: { kind: 'regex', pattern: pattern ?? '\\beval\\(' },
    evidence: { positive_refs: ['p'], negative_control_refs: ['n'] },
    ...rest,
  };
}

export function indexJson(...constraints: ConstraintEntry[]): string {
  return `${JSON.stringify({ schema_version: 1, constraints: constraints.map(writtenEntry) }, null, 2)}\n`;
}

/** Writes and stages a constraint index. */
export function stageIndex(repo: TestRepo, ...constraints: ConstraintEntry[]): void {
  repo.write('.agents/constraints/index.json', indexJson(...constraints));
  repo.git('add', '.agents/constraints/index.json');
}

export const head = (repo: TestRepo): string | null => {
  const r = repo.tryGit(['rev-parse', '--verify', '-q', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : null;
};
