/**
 * `findings init` keeps hooks that ran before it running (chained from .husky/<name>), or refuses
 * with exit 1; `doctor` reports every hook that will not run; a linked worktree gets the one
 * command that makes its hooks run; `compile --check` passes right after init (docs/hooks.md).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runFindings, spawnFindings, tempDir, type TestRepo } from '../helpers/repo.js';
import { commit, constraint, gitRun, hookEnv, indexJson, installTooling } from '../hooks/setup.js';

function hook(file: string, body: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

async function init(repo: TestRepo): Promise<{ code: number; stdout: string; stderr: string }> {
  return spawnFindings(['init'], { cwd: repo.root, env: hookEnv() });
}

const gitDir = (repo: TestRepo): string => path.join(repo.root, '.git');

describe('init chains the hooks that ran before it', () => {
  it('.git/hooks/pre-commit and pre-push keep running (pre-push sees the refs, and so does ours); a failing one still blocks', async () => {
    const repo = makeRepo({ '.gitignore': 'node_modules\nlog/\n' });
    installTooling(repo.root);
    hook(path.join(gitDir(repo), 'hooks/pre-commit'), 'echo "legacy pre-commit" >> log/calls; [ ! -f block ]');
    hook(path.join(gitDir(repo), 'hooks/pre-push'), 'cat >> log/refs; echo "legacy pre-push $1" >> log/calls');
    mkdirSync(path.join(repo.root, 'log'));
    const r = await init(repo);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('.git/hooks/pre-commit keeps running');
    expect(repo.git('config', 'core.hooksPath').trim()).toBe('.husky/_');
    // a second run changes nothing
    const again = await init(repo);
    expect(again.stdout.split('\n').filter((l) => /^(created|updated) /.test(l))).toEqual([]);

    repo.write('.agents/constraints/index.json', indexJson(constraint('eval')));
    repo.git('add', '-A');
    expect(commit(repo, []).code).toBe(0);
    expect(readFileSync(path.join(repo.root, 'log/calls'), 'utf8')).toBe('legacy pre-commit\n');

    repo.write('block', '');
    repo.write('a.js', 'export const a = 1;\n');
    repo.git('add', 'a.js');
    expect(commit(repo, []).code).not.toBe(0); // the legacy hook said no
    repo.git('rm', '-q', '--cached', 'a.js');

    const remote = tempDir('findings-chain-remote-');
    makeRepo().git('init', '-q', '--bare', remote);
    repo.git('remote', 'add', 'origin', remote);
    const pushed = gitRun(repo, ['push', '-q', 'origin', 'main']);
    expect(pushed.code, pushed.stdout).toBe(0);
    expect(readFileSync(path.join(repo.root, 'log/calls'), 'utf8')).toContain('legacy pre-push origin');
    expect(readFileSync(path.join(repo.root, 'log/refs'), 'utf8')).toMatch(/^refs\/heads\/main [0-9a-f]{40} refs\/heads\/main 0{40}$/m);

    // our pre-push hook got the refs too: a pushed violation is refused
    repo.write('b.js', 'export const b = eval("1");\n');
    repo.git('add', 'b.js');
    repo.git('commit', '-q', '--no-verify', '-m', 'bad');
    const refused = gitRun(repo, ['push', '-q', 'origin', 'main']);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toContain('eval');
  });

  it('a core.hooksPath folder inside the repository keeps running, commit-msg included', async () => {
    const repo = makeRepo({ '.gitignore': 'node_modules\n' });
    installTooling(repo.root);
    hook(path.join(repo.root, '.githooks/commit-msg'), 'grep -q "^ok" "$1"');
    repo.git('config', 'core.hooksPath', '.githooks');
    const r = await init(repo);
    expect(r.code, r.stderr).toBe(0);
    expect(repo.read('.husky/commit-msg')).toContain(`'./.githooks/commit-msg' "$@"`);
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-q', '-m', 'nope']).code).not.toBe(0);
    expect(gitRun(repo, ['commit', '-q', '-m', 'ok: layout']).code).toBe(0);
  });

  it('husky 8 (core.hooksPath = .husky) is not foreign: no hook calls itself', async () => {
    const repo = makeRepo({ '.gitignore': 'node_modules\n' });
    installTooling(repo.root);
    hook(path.join(repo.root, '.husky/pre-commit'), 'echo husky8');
    repo.git('config', 'core.hooksPath', '.husky');
    const r = await init(repo);
    expect(r.code, r.stderr).toBe(0);
    expect(repo.read('.husky/pre-commit')).not.toContain('keeps running');
    expect(repo.git('config', 'core.hooksPath').trim()).toBe('.husky/_');
  });

  it('a core.hooksPath outside the repository: exit 1 naming the hook and both ways forward, nothing written', async () => {
    const repo = makeRepo();
    installTooling(repo.root);
    const outside = tempDir('findings-foreign-hooks-');
    hook(path.join(outside, 'pre-commit'), 'exit 0');
    repo.git('config', 'core.hooksPath', outside);
    const r = await init(repo);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${outside}/pre-commit`);
    expect(r.stderr).toContain('git config --unset core.hooksPath');
    expect(r.stderr).toContain('move those hooks into the repository');
    expect(existsSync(path.join(repo.root, '.husky'))).toBe(false);
    expect(repo.git('config', 'core.hooksPath').trim()).toBe(outside);
  });
});

describe('doctor and linked worktrees', () => {
  it('reports a hidden .git/hooks file, HUSKY=0 and a missing bin', async () => {
    const repo = makeRepo({ '.gitignore': 'node_modules\n' });
    installTooling(repo.root);
    expect((await init(repo)).code).toBe(0);
    hook(path.join(gitDir(repo), 'hooks/post-checkout'), 'exit 0');
    const r = await runFindings(['doctor'], { cwd: repo.root, env: { HUSKY: '0' } });
    expect(r.stdout).toContain('doctor/hook-hidden');
    expect(r.stdout).toContain('.git/hooks/post-checkout will not run');
    expect(r.stdout).toContain('doctor/husky-disabled');
    const bare = makeRepo();
    expect((await init(bare)).code).toBe(0);
    const missing = await runFindings(['doctor'], { cwd: bare.root });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('doctor/bin-missing');
  });

  it('in a linked worktree doctor prints the one command; after it the hooks run there and block', async () => {
    const repo = makeRepo({ '.gitignore': 'node_modules\n' });
    installTooling(repo.root);
    expect((await init(repo)).code).toBe(0);
    repo.write('.agents/constraints/index.json', indexJson(constraint('eval')));
    repo.commitAll('init');
    const wt = path.join(tempDir('findings-wt-'), 'wt');
    repo.git('worktree', 'add', '-q', wt);
    const wtRepo: TestRepo = { ...repo, root: wt };
    writeFileSync(path.join(wt, 'bad.js'), 'export const b = eval("1");\n');
    gitRun(wtRepo, ['add', 'bad.js']);
    // Before: git silently runs no hook here.
    expect(commit(wtRepo, ['--dry-run']).code).toBe(0);
    const before = await runFindings(['doctor'], { cwd: wt });
    expect(before.code).toBe(1);
    const fix = /fix: run `([^`]+)` in (\S+)/.exec(before.stdout);
    expect(fix, before.stdout).not.toBeNull();
    expect(fix![1]).not.toContain('npx');
    const [cmd, ...args] = fix![1]!.split(' ');
    expect(spawnSync(cmd!, args, { cwd: fix![2], env: hookEnv() }).status).toBe(0);
    const after = await runFindings(['doctor'], { cwd: wt });
    expect(after.stdout).not.toContain('doctor/hooks-path');
    const blocked = commit(wtRepo, []);
    expect(blocked.code).not.toBe(0);
    expect(blocked.stdout).toContain('eval');
  });

  it('compile --check passes right after init and its first commit: no index yet, no constraint, no drift', async () => {
    const repo = makeRepo();
    expect((await init(repo)).code).toBe(0);
    repo.commitAll('init');
    const r = await runFindings(['compile', '--check'], { cwd: repo.root });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
});
