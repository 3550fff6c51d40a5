/**
 * `.agents/` in a subfolder of the git work tree (a monorepo's package): every command judges
 * the project's files under their project-relative paths, files outside the project are not
 * its business, and the hooks `findings init --root <sub>` installs judge it (docs/hooks.md,
 * "A project below the git top level").
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PACKAGE_ROOT, runFindings, spawnFindings, tempDir, type TestRepo } from '../helpers/repo.js';
import { commit, constraint, gitRun, hookEnv, indexJson, installTooling } from './setup.js';

const PKG = 'packages/app';

/** A work tree whose project lives in packages/app, with a violation inside it and one outside it. */
function monorepo(): TestRepo {
  const repo = makeRepo({
    '.gitignore': 'node_modules\n',
    'README.md': 'top\n',
    'other/x.js': 'eval(0);\n// findings-ignore active: outside the project\neval(9);\n',
    [`${PKG}/.agents/constraints/index.json`]: indexJson(
      constraint('active'),
      constraint('todo', { status: 'shadow', pattern: 'TODO', globs: ['src/**'] }),
    ),
    [`${PKG}/src/old.js`]: 'eval(1);\n// TODO later\n',
    [`${PKG}/src/s.js`]: '// findings-ignore active: a trusted constant\neval(2);\n',
  });
  repo.commitAll('init');
  return repo;
}

const out = (r: { stdout: string; stderr: string }): string => r.stdout + r.stderr;

describe('a project root below the git top level', () => {
  it('check in every mode, baseline, explain and measure judge the project under project-relative paths', async () => {
    const repo = monorepo();
    const pkg = path.join(repo.root, PKG);
    const all = await runFindings(['check', '--all', '--root', PKG], { cwd: repo.root });
    expect(all.code, out(all)).toBe(1);
    expect(all.stdout).toContain('src/old.js:1:1');
    expect(out(all)).not.toContain('other/x.js');
    // Run from inside the project, without --root: the nearest folder holding .agents/ is the root.
    const inside = await runFindings(['check', '--all', '--format', 'json'], { cwd: path.join(pkg, 'src') });
    expect(inside.code).toBe(1);
    expect((JSON.parse(inside.stdout) as { file: string; suppressed?: boolean }[]).map((d) => [d.file, d.suppressed ?? false])).toEqual([
      ['src/old.js', false],
      ['src/old.js', false],
      ['src/s.js', true],
    ]);

    repo.write(`${PKG}/src/new.js`, 'eval(3);\n');
    repo.write('other/y.js', 'eval(4);\n');
    repo.git('add', '-A');
    const staged = await runFindings(['check', '--staged', '--root', PKG, '--format', 'json'], { cwd: repo.root });
    expect(staged.code, out(staged)).toBe(1);
    expect((JSON.parse(staged.stdout) as { file: string }[]).map((d) => d.file)).toEqual(['src/new.js']);
    const named = await runFindings(['check', 'src/new.js'], { cwd: pkg });
    expect(named.code, out(named)).toBe(1);
    expect(named.stdout).toContain('src/new.js:1:1');
    repo.git('commit', '-q', '--no-verify', '-m', 'new');
    const range = await runFindings(['check', '--from-ref', 'HEAD~1', '--to-ref', 'HEAD', '--root', PKG], { cwd: repo.root });
    expect(range.code, out(range)).toBe(1);
    expect(range.stdout).toContain('src/new.js:1:1');
    expect(out(range)).not.toContain('other/y.js');

    const baseline = await runFindings(['constraint', 'baseline', 'active', '--root', PKG], { cwd: repo.root });
    expect(baseline.code, out(baseline)).toBe(0);
    const recorded = JSON.parse(repo.read(`${PKG}/.agents/constraints/baselines/active.json`)) as { violations: { path: string }[] };
    expect(recorded.violations.map((v) => v.path)).toEqual(['src/new.js', 'src/old.js', 'src/s.js']);

    const explain = await runFindings(['explain', 'active', '--root', PKG], { cwd: repo.root });
    expect(explain.code, out(explain)).toBe(0);
    expect(explain.stdout).toContain('inline suppressions at HEAD: 1 in 1 file(s)');

    const measure = await runFindings(['constraint', 'measure', '--root', PKG], { cwd: repo.root });
    expect(measure.code, out(measure)).toBe(0);
    const measured = JSON.parse(repo.read(`${PKG}/.agents/constraints/measurements/todo.json`)) as { hits: { path: string }[] };
    expect(measured.hits.map((h) => h.path)).toEqual(['src/old.js']);
  });

  it('the hooks `findings init --root <sub>` installs judge the project: commit and push', async () => {
    const repo = monorepo();
    installTooling(path.join(repo.root, PKG));
    const init = await spawnFindings(['init', '--root', PKG], { cwd: repo.root, env: hookEnv() });
    expect(init.code, out(init)).toBe(0);
    repo.commitAll('init');

    repo.write('other/z.js', 'eval(5);\n'); // not the project's file: its constraints do not judge it
    repo.git('add', '-A');
    expect(commit(repo, []).code).toBe(0);
    repo.write(`${PKG}/src/bad.js`, 'eval(6);\n');
    repo.git('add', '-A');
    const blocked = commit(repo, []);
    expect(blocked.code, blocked.stdout).not.toBe(0);
    expect(blocked.stdout).toContain('src/bad.js:1:1');

    repo.git('commit', '-q', '--no-verify', '-m', 'violation');
    const remote = tempDir('findings-remote-');
    repo.git('init', '-q', '--bare', remote);
    repo.git('remote', 'add', 'origin', remote);
    const pushed = gitRun(repo, ['push', '-q', 'origin', 'main']);
    expect(pushed.code, pushed.stdout).not.toBe(0);
    expect(pushed.stdout).toContain('src/bad.js:1:1');
  });
});

describe('top-level paths stay inside src/git', () => {
  it('no module outside src/git asks git for paths from the top level or for a listing it would have to convert', () => {
    const outside = ['hooks', 'compiler', 'src'].flatMap((dir) =>
      readdirSync(path.join(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts') && !(dir === 'src' && f.startsWith('git/')))
        .map((f) => path.join(dir, f)),
    );
    const listing = /'(?:ls-files|ls-tree|--full-name|--full-tree|--name-only|--name-status)'|\['grep'/;
    expect(outside.filter((f) => listing.test(readFileSync(path.join(PACKAGE_ROOT, f), 'utf8')))).toEqual([]);
  });
});
