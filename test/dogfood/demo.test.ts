/**
 * `npm run demo` (README "Two commands") is part of the test command: it must succeed, walk the
 * whole loop in a temporary copy of examples/demo (examples/demo-loop.mjs exits 1 when a step does
 * not behave as documented), and leave the repository as it was. Its first half recompiles
 * examples/demo in place, so a git status that changes proves the demo's committed compiled
 * outputs are not current (the CI demo-currency check: `git diff --exit-code` after the demo).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GIT_ENV, PACKAGE_ROOT, spawnFindings } from '../helpers/repo.js';

function run(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV, NO_COLOR: '1' };
    for (const k of ['GIT_INDEX_FILE', 'GIT_DIR', 'GIT_WORK_TREE']) delete env[k];
    const child = spawn(cmd, args, { cwd: PACKAGE_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

const examplesStatus = async (): Promise<string> => {
  const r = await run('git', ['status', '--porcelain', '--untracked-files=all', '--', 'examples']);
  expect(r.code).toBe(0);
  return r.out;
};

describe('npm run demo', () => {
  it("examples/demo's committed compiled outputs are current (compile --check writes nothing and finds no drift)", async () => {
    const r = await spawnFindings(['compile', '--check', '--root', 'examples/demo'], { cwd: PACKAGE_ROOT });
    expect(r.stderr + r.stdout).toContain('all compiled files are current');
    expect(r.code).toBe(0);
  });

  it('walks the whole loop and leaves examples/ exactly as it was (git status unchanged)', { timeout: 300_000 }, async () => {
    const before = await examplesStatus();
    const r = await run('npm', ['run', '--silent', 'demo']);
    expect(r.out).toContain('0 created, 0 updated, 0 removed');
    // `check --all --root examples/demo` judges the demo under its own paths (its .agents/ lies below the top level).
    expect(r.out).toContain('src/trace.ts:5:3  warning  No console.log in library code');
    for (const step of [
      'Review',
      'second objective',
      'recur',
      'registry',
      'Compile',
      'shadow warns',
      'measure',
      'Label',
      'Activate',
      'blocked',
      'explain',
    ]) {
      expect(r.out).toContain(step);
    }
    expect(r.out).toContain('every step behaved as documented');
    expect(r.code).toBe(0);
    expect(await examplesStatus()).toBe(before);
  });
});
