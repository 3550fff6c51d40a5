/**
 * Installing as the README says, in a fresh temp project: pack this package (dist/ ships in the
 * tarball), install the tarball next to husky, `npx findings init`, and commit through the real
 * hook — one commit passing, one blocked. Then the README's CI workflow steps pass right after init
 * and the first commit. Commands are taken from README.md itself, so the test follows them
 * literally (plus `--offline`-first flags so the install uses npm's cache when it can).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_ENV, PACKAGE_ROOT, tempDir } from '../helpers/repo.js';
import { constraint, hookEnv, indexJson } from '../hooks/setup.js';

const README = readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
const INSTALL_FLAGS = '--no-audit --no-fund --loglevel=error';

/** The fenced ```sh blocks of a README section, as command lines (comments and blanks dropped). */
function commandsOf(section: string): string[] {
  const start = README.indexOf(`## ${section}`);
  const body = README.slice(start, README.indexOf('\n## ', start + 3));
  return [...body.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((l) => l !== '' && !l.startsWith('#')),
  );
}

function sh(cwd: string, command: string, env: NodeJS.ProcessEnv = {}): { code: number; out: string } {
  const r = spawnSync('sh', ['-c', command], { cwd, env: hookEnv({ ...GIT_ENV, ...env }), encoding: 'utf8' });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/** `npm i` from npm's cache first (fast, works offline); online only when the cache lacks something. */
function npmInstall(cwd: string, command: string): void {
  const offline = sh(cwd, `${command} --offline ${INSTALL_FLAGS}`);
  if (offline.code === 0) return;
  const online = sh(cwd, `${command} --prefer-offline ${INSTALL_FLAGS}`);
  expect(online.code, `${command}\n${offline.out}\n${online.out}`).toBe(0);
}

describe('install from an npm pack tarball, as the README says', () => {
  it('packs with dist/ inside, installs with husky in a fresh project, init, one commit passes, one is blocked; CI passes after init', async () => {
    const commands = commandsOf('Using it in a repository');
    const pack = commands.find((c) => c.startsWith('npm ci && npm pack'));
    const install = commands.find((c) => c.startsWith('npm i -D ') && c.endsWith('.tgz husky'));
    const init = commands.find((c) => c.startsWith('npx findings init'));
    const firstCommit = commands.find((c) => c.startsWith('git add -A && git commit'));
    expect(
      [pack, install, init, firstCommit].every((c) => c !== undefined),
      commands.join('\n'),
    ).toBe(true);

    // The README's `npm ci && npm pack` in the clone: the suite already runs after `npm ci`, so pack.
    // HUSKY=0: prepare must not re-point this repository's own hooks.
    const base = tempDir('findings-install-');
    const clone = path.join(base, 'findings-compiler');
    mkdirSync(clone);
    const packed = sh(PACKAGE_ROOT, `npm pack --ignore-scripts --pack-destination "${clone}" --loglevel=error`);
    expect(packed.code, packed.out).toBe(0);
    const tgz = readdirSync(clone).find((f) => f.endsWith('.tgz'))!;
    expect(install).toContain(`../findings-compiler/${tgz}`);
    const listing = spawnSync('tar', ['-tzf', path.join(clone, tgz)], { encoding: 'utf8' }).stdout;
    expect(listing).toContain('package/dist/src/cli/main.js');
    expect(listing).toContain('package/dist/validators/');
    expect(listing).not.toContain('tsbuildinfo');

    const project = path.join(base, 'project');
    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      `${JSON.stringify({ name: 'demo-project', version: '1.0.0', private: true, scripts: { prepare: 'husky' } }, null, 2)}\n`,
    );
    writeFileSync(path.join(project, '.gitignore'), 'node_modules\n');
    expect(sh(project, 'git init -q -b main').code).toBe(0);
    npmInstall(project, install!);
    expect(existsSync(path.join(project, 'node_modules/.bin/findings'))).toBe(true);

    const initRun = sh(project, init!);
    expect(initRun.code, initRun.out).toBe(0);
    expect(sh(project, 'git config core.hooksPath').out.trim()).toBe('.husky/_');
    for (const h of ['pre-commit', 'pre-merge-commit', 'pre-push']) {
      const code = readFileSync(path.join(project, '.husky', h), 'utf8')
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .join('\n');
      expect(code).not.toMatch(/\bnpx\b/);
      expect(code).toContain('node_modules/.bin/findings');
    }
    const first = sh(project, firstCommit!);
    expect(first.code, first.out).toBe(0);

    // The README's CI workflow, right after init and its first commit, on a pull request branch.
    const remote = tempDir('findings-install-remote-');
    expect(sh(remote, 'git init -q --bare').code).toBe(0);
    expect(sh(project, `git remote add origin "${remote}" && git push -q origin main 2>&1 && git checkout -q -b feature`).code).toBe(0);
    writeFileSync(path.join(project, 'ok.js'), 'export const ok = 1;\n');
    expect(sh(project, 'git add ok.js && git commit -q -m ok').code).toBe(0);
    const ci = README.slice(README.indexOf('## CI'));
    const steps = [...ci.slice(0, ci.indexOf('```', ci.indexOf('```yaml') + 7)).matchAll(/- run: (.+)/g)]
      .map((m) => m[1]!.trim())
      .filter((c) => c !== 'npm ci');
    expect(steps.length).toBeGreaterThan(1);
    const summary = path.join(base, 'summary.md');
    for (const step of steps) {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression copied from the README's workflow, not a JS template
      const r = sh(project, step.replaceAll('${{ github.base_ref }}', 'main'), { GITHUB_STEP_SUMMARY: summary });
      expect(r.code, `${step}\n${r.out}`).toBe(0);
    }

    // An active constraint: a clean commit passes, a violating one is blocked by the real hook.
    mkdirSync(path.join(project, '.agents/constraints'), { recursive: true });
    writeFileSync(path.join(project, '.agents/constraints/index.json'), indexJson(constraint('no-eval')));
    expect(sh(project, 'git add -A && git commit -q -m constraint').code).toBe(0);
    writeFileSync(path.join(project, 'clean.js'), 'export const x = 1;\n');
    const passing = sh(project, 'git add clean.js && git commit -q -m clean');
    expect(passing.code, passing.out).toBe(0);
    writeFileSync(path.join(project, 'bad.js'), 'export const y = eval("1");\n');
    const blocked = sh(project, 'git add bad.js && git commit -q -m bad');
    expect(blocked.code, blocked.out).not.toBe(0);
    expect(blocked.out).toContain('no-eval');
    expect(sh(project, 'git log --format=%s -1').out.trim()).toBe('clean');
  }, 600_000);
});

// A git URL install clones, installs every dev dependency and builds: minutes, so opt-in
// (FINDINGS_E2E_GIT=1). It installs from this repository's committed HEAD.
describe.runIf(process.env['FINDINGS_E2E_GIT'] === '1')('install from a git URL, as the README says', () => {
  it('builds dist/ in prepare and the bin runs', () => {
    const line = commandsOf('Using it in a repository').find((c) => c.startsWith('npm i -D "git+file://'))!;
    const base = tempDir('findings-install-git-');
    const project = path.join(base, 'project');
    mkdirSync(project);
    spawnSync('git', ['clone', '-q', PACKAGE_ROOT, path.join(base, 'findings-compiler')]);
    writeFileSync(path.join(project, 'package.json'), '{ "name": "p", "version": "1.0.0", "private": true }\n');
    expect(sh(project, 'git init -q -b main').code).toBe(0);
    npmInstall(project, line);
    const r = sh(project, 'npx findings --version');
    expect(r.code, r.out).toBe(0);
  }, 900_000);
});
