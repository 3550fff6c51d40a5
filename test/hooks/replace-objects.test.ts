/**
 * `git replace` and grafts change what `cat-file` and `diff` read, but not what `git commit`
 * writes or `git push` sends (docs/stack-pitfalls.md#18): the gate reads with replacements off and
 * grafts ignored, through the hooks `findings init` installs (docs/hooks.md, "What a change can
 * and cannot do to its own judgment").
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/repo.js';
import { commit, constraint, gitRun, hookedRepo, stageIndex } from './setup.js';

describe('replace refs and grafts', () => {
  it('a replaced HEAD cannot weaken "before", and a replaced blob is not what pre-push judges', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, constraint('active'));
    repo.git('commit', '-q', '--no-verify', '-m', 'index');
    const remote = tempDir('findings-remote-');
    repo.git('init', '-q', '--bare', remote);
    repo.git('remote', 'add', 'origin', remote);
    expect(gitRun(repo, ['push', '-q', '--no-verify', 'origin', 'main']).code).toBe(0);

    // pre-commit: HEAD replaced by a commit whose index demotes the constraint; the demotion and a
    // violation staged together must still be judged by the real HEAD's index.
    stageIndex(repo, constraint('active', { status: 'shadow' }));
    const tree = repo.git('write-tree').trim();
    const real = repo.git('rev-parse', 'HEAD').trim();
    const fake = repo.git('commit-tree', tree, '-p', real, '-m', 'fake').trim();
    repo.git('replace', real, fake);
    repo.write('app.js', 'eval(1);\n');
    repo.git('add', 'app.js');
    const committed = commit(repo, []);
    expect(committed.code, committed.stdout).not.toBe(0);
    expect(committed.stdout).toContain('constraint/active');
    repo.git('replace', '-d', real);
    repo.git('reset', '-q', '--hard', real);

    // pre-push: the pushed blob holds a violation; a replacement shows a clean one in its place.
    repo.write('app.js', 'eval(2);\n');
    repo.git('add', 'app.js');
    repo.git('commit', '-q', '--no-verify', '-m', 'violation');
    const bad = repo.git('rev-parse', 'HEAD:app.js').trim();
    repo.write('clean.txt', 'const x = 2;\n');
    const clean = repo.git('hash-object', '-w', 'clean.txt').trim();
    repo.git('replace', bad, clean);
    const pushed = gitRun(repo, ['push', '-q', 'origin', 'main']);
    expect(pushed.code, pushed.stdout).not.toBe(0);
    expect(pushed.stdout).toContain('constraint/active');
  });
});
