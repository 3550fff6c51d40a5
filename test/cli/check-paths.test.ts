/** `findings check [--staged | --worktree] <paths…>`: what lint-staged and editors call. */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runFindings, spawnFindings, tempDir } from '../helpers/repo.js';
import { constraint, indexJson } from '../hooks/setup.js';

const BAD = 'export const y = eval("1");\n';
const OK = 'export const y = 1;\n';

/** A repository with an active constraint committed; a.js staged bad but clean on disk, b.js the reverse, c.js staged bad. */
function repoWithChanges() {
  const repo = makeRepo({
    '.agents/constraints/index.json': indexJson(constraint('active'), constraint('added', { pattern: 'TODO', scope: 'added-lines' })),
  });
  repo.write('legacy.js', 'TODO old\n');
  repo.commitAll('index');
  repo.write('a.js', BAD);
  repo.write('b.js', OK);
  repo.write('c.js', BAD);
  repo.write('legacy.js', 'TODO old\nok\n');
  repo.git('add', 'a.js', 'b.js', 'c.js', 'legacy.js');
  repo.write('a.js', OK);
  repo.write('b.js', BAD);
  return repo;
}

const files = (stdout: string): string[] => (JSON.parse(stdout) as { file: string }[]).map((d) => d.file);

describe('findings check <paths…>', () => {
  it.each([
    [['a.js'], 1, ['a.js']],
    [['--staged', 'a.js'], 1, ['a.js']],
    [['--worktree', 'a.js'], 0, []],
    [['b.js'], 0, []],
    [['--worktree', 'b.js'], 1, ['b.js']],
    [['a.js', 'b.js', 'c.js'], 1, ['a.js', 'c.js']],
    // added-lines scope is judged against HEAD, as pre-commit does: the legacy TODO is not new
    [['legacy.js'], 0, []],
    // the working tree has no base: whole files, as --all
    [['--worktree', 'legacy.js'], 1, ['legacy.js']],
  ])('check %j exits %i reporting %j', async (args, code, reported) => {
    const repo = repoWithChanges();
    const r = await runFindings(['check', '--format', 'json', ...args], { cwd: repo.root });
    expect(r.code, r.stderr).toBe(code);
    expect(files(r.stdout)).toEqual(reported);
  });

  it('takes absolute paths (lint-staged), paths relative to a subfolder, and folders', async () => {
    const repo = repoWithChanges();
    repo.write('src/d.js', BAD);
    repo.git('add', 'src/d.js');
    const abs = await runFindings(['check', '--format', 'json', path.join(repo.root, 'c.js'), path.join(repo.root, 'b.js')], {
      cwd: repo.root,
    });
    expect([abs.code, files(abs.stdout)]).toEqual([1, ['c.js']]);
    mkdirSync(path.join(repo.root, 'src/deeper'), { recursive: true });
    const rel = await runFindings(['check', '--format', 'json', '../d.js'], { cwd: path.join(repo.root, 'src/deeper') });
    expect([rel.code, files(rel.stdout)]).toEqual([1, ['src/d.js']]);
    const folder = await runFindings(['check', '--format', 'json', 'src'], { cwd: repo.root });
    expect([folder.code, files(folder.stdout)]).toEqual([1, ['src/d.js']]);
  });

  it.each([
    [['../outside.js'], 'outside the repository'],
    [['untracked.js'], 'untracked.js: not in the index'],
    [['--worktree', 'missing.js'], 'missing.js: cannot read (ENOENT)'],
    [['--all', 'a.js'], 'named paths go with --staged'],
    [['--staged', '--worktree', 'a.js'], 'choose --staged or --worktree'],
    [['--worktree'], '--worktree needs the paths'],
  ])('check %j: exit 2, "%s"', async (args, message) => {
    const repo = repoWithChanges();
    repo.write('untracked.js', BAD);
    const r = await runFindings(['check', ...args], { cwd: repo.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('a symlink is judged by its link text, never followed', async () => {
    const repo = repoWithChanges();
    const target = path.join(tempDir(), 'eval(.js');
    symlinkSync(target, path.join(repo.root, 'link.js'));
    repo.git('add', 'link.js');
    expect((await runFindings(['check', '--worktree', 'link.js'], { cwd: repo.root })).code).toBe(1);
    expect((await runFindings(['check', 'link.js'], { cwd: repo.root })).code).toBe(1);
  });

  it('through the real bin, the way lint-staged calls it ("*": "findings check")', async () => {
    const repo = repoWithChanges();
    const blocked = await spawnFindings(['check', path.join(repo.root, 'a.js'), path.join(repo.root, 'b.js')], { cwd: repo.root });
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toContain('a.js:1:18  error');
    expect(blocked.stdout).not.toContain('b.js');
    const clean = await spawnFindings(['check', path.join(repo.root, 'b.js')], { cwd: repo.root });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('1 file(s)');
  });
});
