/** Defects found in review, each pinned by a test that failed before its fix. */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runFindings, tempDir } from '../helpers/repo.js';
import { commit, constraint, gitRun, hookedRepo, stageIndex } from './setup.js';

const BAD = 'export const y = eval("1");\n';

describe('hook regressions', () => {
  it('pre-push after a rebase and a force push judges only what the branch changes', async () => {
    const remote = tempDir('findings-remote-');
    const repo = await hookedRepo();
    gitRun(repo, ['init', '-q', '--bare', remote]);
    repo.git('remote', 'add', 'origin', remote);
    stageIndex(repo, constraint('active'));
    repo.git('commit', '-q', '--no-verify', '-m', 'index');
    expect(gitRun(repo, ['push', '-q', '--no-verify', 'origin', 'main']).code).toBe(0);
    repo.git('checkout', '-q', '-b', 'topic');
    repo.write('t.js', 'ok\n');
    repo.commitAll('topic');
    expect(gitRun(repo, ['push', '-q', 'origin', 'topic']).code).toBe(0);
    // Someone else's violation lands on main (pushed past the hook)…
    repo.git('checkout', '-q', 'main');
    repo.write('other.js', BAD);
    repo.commitAll('other');
    expect(gitRun(repo, ['push', '-q', '--no-verify', 'origin', 'main']).code).toBe(0);
    // …and the topic branch is rebased onto it and force-pushed: other.js is not the topic's change.
    repo.git('checkout', '-q', 'topic');
    repo.git('rebase', '-q', 'main');
    const r = gitRun(repo, ['push', '-q', '-f', 'origin', 'topic']);
    expect(r.stdout).not.toContain('other.js');
    expect(r.code).toBe(0);
  });

  it('an added-lines constraint still sees a file whose name is not valid UTF-8', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, constraint('added', { scope: 'added-lines' }));
    repo.git('commit', '-q', '--no-verify', '-m', 'index');
    // Write the name as raw bytes (latin1 'é' = 0xe9), which is not valid UTF-8.
    const raw = Buffer.from([0x6c, 0x61, 0x74, 0xe9, 0x2e, 0x6a, 0x73]);
    writeFileSync(Buffer.concat([Buffer.from(`${repo.root}/`), raw]), BAD);
    repo.git('add', '-A');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('constraint/added');
  });

  it('check, hook and doctor outside a git repository: exit 2 with one clear line', async () => {
    const dir = tempDir();
    for (const args of [['check'], ['hook', 'pre-commit'], ['doctor']]) {
      const r = await runFindings(args, { cwd: dir });
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2]);
      expect(r.stderr).toMatch(/not a git repository/);
      expect(r.stderr.split('\n').filter((l) => l.trim() !== '')).toHaveLength(1);
    }
  });
});
