/**
 * The launcher's start of a commit hook (hooks/commit-start.ts): for an ordinary repository the
 * probe's answers come from its files and the early cat-file's HEAD, and they must be exactly what
 * `git rev-parse` answers; anything unusual goes to rev-parse itself (src/git/local-repository.ts).
 * Real repositories.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCommitHook } from '../../hooks/commit-start.js';
import { configRelocates, localRepository } from '../../src/git/local-repository.js';
import { probeRepository } from '../../src/git/probe.js';
import { makeRepo, tempDir, type TestRepo } from '../helpers/repo.js';

const PLAIN = ['hook', 'pre-commit'];

async function bothProbes(repo: TestRepo, cwd = repo.root) {
  const started = startCommitHook(PLAIN, {}, cwd);
  expect(started).not.toBeNull();
  return { local: await started!.probe, git: await probeRepository(cwd) };
}

describe('the probe from the repository files', () => {
  it('answers as rev-parse does: unborn, committed, detached, packed refs, a merge and a rebase in progress', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const unborn = await bothProbes(repo);
    expect(unborn.local).toEqual(unborn.git);
    expect(unborn.local?.head).toBeNull();
    const first = repo.commitAll('one');
    const committed = await bothProbes(repo);
    expect(committed.local).toEqual(committed.git);
    expect(committed.local?.head).toBe(first);
    repo.git('pack-refs', '--all');
    expect((await bothProbes(repo)).local?.head).toBe(first);
    repo.git('checkout', '-q', '--detach');
    repo.write('a.txt', 'b\n');
    const second = repo.commitAll('two');
    const detached = await bothProbes(repo);
    expect(detached.local).toEqual(detached.git);
    expect(detached.local?.head).toBe(second);
    writeFileSync(path.join(repo.root, '.git/MERGE_HEAD'), `${first}\n`);
    const merging = await bothProbes(repo);
    expect(merging.local).toEqual(merging.git);
    expect(merging.local?.operation).toBe('merge');
    mkdirSync(path.join(repo.root, '.git/rebase-merge'));
    expect((await bothProbes(repo)).local?.operation).toBe('rebase');
  });

  it('is not used where git could answer otherwise: a subfolder, a linked worktree, a relocating variable or config', () => {
    const repo = makeRepo({ 'src/a.txt': 'a\n' });
    repo.commitAll();
    expect(localRepository(repo.root, {})).toEqual({ topLevel: repo.root, gitDir: path.join(repo.root, '.git'), hashBytes: 20 });
    expect(localRepository(path.join(repo.root, 'src'), {})).toBeNull();
    for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_OBJECT_DIRECTORY', 'GIT_CONFIG_PARAMETERS']) {
      expect(localRepository(repo.root, { [name]: 'x' }), name).toBeNull();
    }
    const linked = path.join(tempDir('findings-linked-'), 'wt');
    repo.git('worktree', 'add', '-q', linked);
    expect(localRepository(linked, {})).toBeNull(); // its .git is a file
    repo.git('config', 'core.worktree', repo.root);
    expect(localRepository(repo.root, {})).toBeNull();
  });

  it('reads the config the way git could relocate with it', () => {
    expect(configRelocates('[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tlogallrefupdates = true\n')).toBe(false);
    expect(configRelocates('[core]\n\tbare = true\n')).toBe(true);
    expect(configRelocates('[core]\n\tbare\n')).toBe(true);
    expect(configRelocates('[core]\n\tworktree = ../elsewhere\n')).toBe(true);
    expect(configRelocates('[include]\n\tpath = more.conf\n')).toBe(true);
    expect(configRelocates('[includeIf "gitdir:~/work/"]\n\tpath = work.conf\n')).toBe(true);
    expect(configRelocates('[extensions]\n\tworktreeConfig = true\n')).toBe(false);
  });

  it('starts nothing for options or a skipped commit, and a linked worktree still gets rev-parse answers', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    repo.commitAll();
    expect(startCommitHook([...PLAIN, '--quiet'], {}, repo.root)).toBeNull();
    expect(startCommitHook(PLAIN, { HUSKY: '0' }, repo.root)).toBeNull();
    expect(startCommitHook(PLAIN, { FINDINGS_SKIP: 'all' }, repo.root)).toBeNull();
    const linked = path.join(tempDir('findings-linked-'), 'wt');
    repo.git('worktree', 'add', '-q', '-b', 'other', linked);
    const started = startCommitHook(PLAIN, {}, linked);
    expect(await started!.probe).toEqual(await probeRepository(linked));
  });
});
