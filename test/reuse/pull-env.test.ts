/**
 * `pull` reads a source in a private bare repository, whatever git variables the caller's
 * environment carries (docs/reuse.md, "Safety"): a hook or an editor may run `findings pull` with
 * GIT_DIR / GIT_INDEX_FILE / GIT_OBJECT_DIRECTORY pointing at the user's repository. Every git
 * process of a pull (fetch, ls-tree, cat-file) must ignore them, or it would read (and write) the
 * user's repository instead of the fetched one.
 */
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifySource, fetchSource } from '../../src/git/pull.js';
import { makeRepo } from '../helpers/repo.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('pull isolates its git environment', () => {
  it('lists and reads the fetched tree while GIT_DIR, GIT_INDEX_FILE and GIT_OBJECT_DIRECTORY name the user repository', async () => {
    const source = makeRepo({ '.agents/findings/registry.jsonl': '{"id":"f-1"}\n', 'other.txt': 'x\n' });
    source.commitAll('source');
    const user = makeRepo({ 'README.md': 'user\n' });
    user.commitAll('user');
    const userGit = path.join(user.root, '.git');
    vi.stubEnv('GIT_DIR', userGit);
    vi.stubEnv('GIT_INDEX_FILE', path.join(userGit, 'index'));
    vi.stubEnv('GIT_OBJECT_DIRECTORY', path.join(userGit, 'objects'));
    vi.stubEnv('GIT_WORK_TREE', user.root);

    const fetched = await fetchSource(classifySource(source.root, user.root), 'HEAD');
    expect(fetched.ok).toBe(true);
    if (!fetched.ok) return;
    try {
      const entries = await fetched.source.entries(['.agents/findings/']);
      expect(entries.map((e) => e.path)).toEqual(['.agents/findings/registry.jsonl']);
      const blobs = await fetched.source.readBlobs([entries[0]!.sha, 'deadbeef']);
      expect(blobs.get(entries[0]!.sha)?.toString('utf8')).toBe('{"id":"f-1"}\n');
      expect(blobs.get('deadbeef')).toBeNull();
    } finally {
      fetched.source.dispose();
    }
    vi.unstubAllEnvs();
    // Nothing of the source reached the user's repository.
    expect(user.tryGit(['cat-file', '-e', `${fetched.source.commit}^{commit}`]).code).not.toBe(0);
    expect(user.tryGit(['for-each-ref', 'refs/findings-pull']).stdout).toBe('');
  });

  it('skips submodule entries of the fetched tree (only blobs are files to copy)', async () => {
    const sub = makeRepo({ 'x.txt': 'x\n' });
    const subSha = sub.commitAll('sub');
    const source = makeRepo({ '.agents/findings/registry.jsonl': '\n' });
    source.git('update-index', '--add', '--cacheinfo', `160000,${subSha},.agents/findings/vendored`);
    source.commitAll('source with a gitlink');
    const fetched = await fetchSource(classifySource(source.root, source.root), 'HEAD');
    expect(fetched.ok).toBe(true);
    if (!fetched.ok) return;
    try {
      expect((await fetched.source.entries(['.agents/findings/'])).map((e) => e.path)).toEqual(['.agents/findings/registry.jsonl']);
    } finally {
      fetched.source.dispose();
    }
  });
});
