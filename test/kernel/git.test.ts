import { describe, expect, it } from 'vitest';
import { parseRawDiff, readObjects, runGit, stagedChanges } from '../../src/git/core.js';
import { commitFiles, indexFiles, worktreeFiles } from '../../src/repo-files.js';
import { makeRepo, tempDir } from '../helpers/repo.js';

describe('git plumbing', () => {
  it('a git that exits without reading its input (not a repository) is an exit code, not a broken-pipe crash', async () => {
    // More than a pipe holds: the write is still going when git has exited and closed its end.
    const r = await runGit(tempDir('findings-norepo-'), ['cat-file', '--batch'], { input: `${'HEAD\n'.repeat(200_000)}` });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/not a git repository/);
  });

  it('parses renames and odd names from --raw -z output', () => {
    const out = Buffer.from(':100644 100644 aaaa bbbb R087\0old name.ts\0new\nname.ts\0:000000 100644 0000 cccc A\0ü.txt\0');
    expect(parseRawDiff(out)).toEqual([
      { status: 'R', srcMode: '100644', dstMode: '100644', srcSha: 'aaaa', dstSha: 'bbbb', path: 'new\nname.ts', oldPath: 'old name.ts' },
      { status: 'A', srcMode: '000000', dstMode: '100644', srcSha: '0000', dstSha: 'cccc', path: 'ü.txt' },
    ]);
  });
  it('lists staged changes before the first commit and reads blobs in one batch', async () => {
    const repo = makeRepo({ 'a b.txt': 'one', 'dir/ü.md': 'two' });
    repo.git('add', '-A');
    const changes = await stagedChanges(repo.root);
    expect(changes.map((c) => [c.status, c.path])).toEqual([
      ['A', 'a b.txt'],
      ['A', 'dir/ü.md'],
    ]);
    const blobs = await readObjects(repo.root, [...changes.map((c) => c.dstSha), 'deadbeef']);
    expect(changes.map((c) => blobs.get(c.dstSha)?.toString())).toEqual(['one', 'two']);
    expect(blobs.get('deadbeef')).toBeNull();
  });
  it('reads the same path from the worktree, the index and a commit', async () => {
    const repo = makeRepo({ '.agents/x.txt': 'committed' });
    const sha = repo.commitAll();
    repo.write('.agents/x.txt', 'staged');
    repo.git('add', '.agents/x.txt');
    repo.write('.agents/x.txt', 'worktree');
    const read = async (f: ReturnType<typeof worktreeFiles>) => (await f.read('.agents/x.txt'))?.toString();
    expect([await read(worktreeFiles(repo.root)), await read(indexFiles(repo.root)), await read(commitFiles(repo.root, sha))]).toEqual([
      'worktree',
      'staged',
      'committed',
    ]);
    expect(await indexFiles(repo.root).list('.agents')).toEqual(['.agents/x.txt']);
    expect(await indexFiles(repo.root).read('.agents/none')).toBeNull();
  });
});

describe('gitClient', () => {
  it('passes git variables through (GIT_INDEX_FILE) and tolerates unrelated ones', async () => {
    const repo = makeRepo();
    const saved = { ...process.env };
    process.env['GIT_INDEX_FILE'] = `${repo.root}/.git/other-index`;
    process.env['EDITOR'] = 'vi';
    try {
      const { gitClient } = await import('../../src/git/client.js');
      expect((await gitClient(repo.root).revparse(['--git-path', 'index'])).trim()).toBe(`${repo.root}/.git/other-index`);
    } finally {
      process.env = saved;
    }
  });
});
