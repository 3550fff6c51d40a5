/** Real throwaway git repositories in temp folders, and ways to run the CLI against them. */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, cpSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { runCli } from '../../src/cli/main.js';

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(PACKAGE_ROOT, 'test/fixtures');
export const BIN = path.join(PACKAGE_ROOT, 'bin/findings.js');

const made: string[] = [];
afterAll(() => {
  if (process.env['KEEP_TMP']) return;
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temp folder, removed after the test file. */
export function tempDir(prefix = 'findings-'): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/** Environment for git in tests: no user or system config leaks in. */
export const GIT_ENV: NodeJS.ProcessEnv = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.com',
};

export interface TestRepo {
  readonly root: string;
  git(...args: string[]): string;
  /** Runs git and returns status and output instead of throwing. */
  tryGit(args: string[], env?: NodeJS.ProcessEnv): { code: number; stdout: string; stderr: string };
  write(rel: string, content: string | Buffer): void;
  read(rel: string): string;
  exists(rel: string): boolean;
  /** Copies a fixture folder (under test/fixtures or absolute) into the repository. */
  copy(from: string, to?: string): void;
  commitAll(message?: string): string;
}

const gitEnv = (): NodeJS.ProcessEnv => ({ ...process.env, ...GIT_ENV });

// One `git init` + config per test file, copied for every repository after it: four git
// processes fewer per test repository (suite time on a loaded 2-core machine).
let emptyRepoTemplate: string | null = null;
function emptyRepo(root: string): void {
  if (emptyRepoTemplate === null) {
    const t = tempDir('findings-template-');
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: t, env: gitEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'author@example.com');
    git('config', 'user.name', 'Test Author');
    git('config', 'commit.gpgsign', 'false');
    emptyRepoTemplate = t;
  }
  cpSync(emptyRepoTemplate, root, { recursive: true });
}

/** `git init` in a temp folder with a pinned identity and branch name. */
export function makeRepo(files: Record<string, string> = {}): TestRepo {
  const root = tempDir('findings-repo-');
  emptyRepo(root);
  const repo = repoAt(root);
  for (const [rel, content] of Object.entries(files)) repo.write(rel, content);
  return repo;
}

/**
 * A copy of a repository prepared once per test file under `key` by `build` (e.g. one with
 * husky and `findings init` done): tests that would each rebuild the same repository share it.
 */
const templates = new Map<string, Promise<string>>();
export async function fromTemplate(key: string, build: () => Promise<TestRepo>): Promise<TestRepo> {
  let ready = templates.get(key);
  if (ready === undefined) {
    ready = build().then((r) => r.root);
    templates.set(key, ready);
  }
  const root = tempDir('findings-repo-');
  cpSync(await ready, root, { recursive: true, verbatimSymlinks: true });
  return repoAt(root);
}

/** The TestRepo helpers for an existing repository folder. */
export function repoAt(root: string): TestRepo {
  const env = gitEnv();
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const repo: TestRepo = {
    root,
    git,
    tryGit(args, extra = {}) {
      return runSync('git', args, root, { ...env, ...extra });
    },
    write(rel, content) {
      const abs = path.join(root, rel);
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    },
    read: (rel) => readFileSync(path.join(root, rel), 'utf8'),
    exists: (rel) => existsSync(path.join(root, rel)),
    copy(from, to = '.') {
      const src = path.isAbsolute(from) ? from : path.join(FIXTURES, from);
      cpSync(src, path.join(root, to), { recursive: true });
    },
    commitAll(message = 'commit') {
      git('add', '-A');
      git('commit', '-q', '--no-verify', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD').trim();
    },
  };
  return repo;
}

function runSync(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { status?: number; stdout?: string; stderr?: string };
    return { code: e.status ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdin?: string;
}

/** Runs the CLI in this process (fast); output is captured. */
export async function runFindings(args: string[], options: RunOptions): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
  });
  return { code, stdout, stderr };
}

/** Runs the real bin in a child process (needs `npm run build`). */
export function spawnFindings(args: string[], options: RunOptions & { bin?: string }): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

/** A bare remote `origin` and a real pre-push hook calling the bin; returns the remote's path. */
export function withPrePushRemote(r: TestRepo): string {
  const remote = tempDir('findings-remote-');
  r.git('init', '-q', '--bare', remote);
  r.git('remote', 'add', 'origin', remote);
  const hook = path.join(r.root, '.git/hooks/pre-push');
  writeFileSync(hook, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" hook pre-push "$@"\n`);
  chmodSync(hook, 0o755);
  return remote;
}
