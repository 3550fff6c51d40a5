/**
 * The extended index (`.agents/constraints/extended.json`) is read beside index.json by the gate
 * in every mode — through real `git commit` runs for the staged path (whose fast path reads both
 * files from git's index file) and in-process for `check --all` and `--range` — as one set of
 * entries by id for the stricter-of judgment.
 */
import { describe, expect, it } from 'vitest';
import { runFindings, type TestRepo } from '../helpers/repo.js';
import { commit, constraint, hookedRepo, indexJson, stageIndex } from './setup.js';

const EXTENDED = '.agents/constraints/extended.json';
const LAND_RULE = 'can land only in a commit that does not need it';
const BAD = 'export const y = eval("1");\n';

function stageExtended(repo: TestRepo, ...entries: Parameters<typeof indexJson>): void {
  repo.write(EXTENDED, indexJson(...entries));
  repo.git('add', EXTENDED);
}

describe('extended.json in the commit hook and check', () => {
  it('an active entry in extended.json blocks; moving it between the files weakens nothing; dropping it is held', async () => {
    const repo = await hookedRepo();
    const active = constraint('f-ext', { globs: ['src/**/*.js'] });
    stageIndex(repo);
    stageExtended(repo, active);
    repo.git('commit', '-q', '--no-verify', '-m', 'constraints');

    // Blocked by the entry extended.json holds (read from git's index file on the fast path).
    repo.write('src/a/bad.js', BAD);
    repo.git('add', 'src/a/bad.js');
    const blocked = commit(repo, []);
    expect(blocked.code).not.toBe(0);
    expect(blocked.stdout).toContain('constraint/f-ext');

    // The same entry moved to index.json in the same commit: still blocks, as itself (nothing held).
    stageIndex(repo, active);
    stageExtended(repo);
    const moved = commit(repo, []);
    expect(moved.code).not.toBe(0);
    expect(moved.stdout).toContain('constraint/f-ext');
    expect(moved.stdout).not.toContain(LAND_RULE);

    // Dropped from extended.json with nothing in index.json: judged by the set before the change.
    stageIndex(repo);
    const dropped = commit(repo, []);
    expect(dropped.code).not.toBe(0);
    expect(dropped.stdout).toContain(LAND_RULE);

    // check --all and a range read it too.
    repo.git('reset', '-q');
    repo.git('checkout', '--', '.agents');
    repo.git('add', 'src/a/bad.js');
    repo.git('commit', '-q', '--no-verify', '-m', 'violation');
    const all = await runFindings(['check', '--all', '--root', repo.root, '--format', 'json'], { cwd: repo.root });
    expect(all.code).toBe(1);
    expect(all.stdout).toContain('constraint/f-ext');
    const range = await runFindings(['check', '--from-ref', 'HEAD~1', '--to-ref', 'HEAD', '--root', repo.root], { cwd: repo.root });
    expect(range.code).toBe(1);
    expect(range.stdout + range.stderr).toContain('constraint/f-ext');
  });

  it("an entry's own problem is reported at its line in extended.json", async () => {
    const repo = await hookedRepo();
    stageExtended(repo, constraint('f-ok', { globs: ['**/*.md'] }), constraint('f-broken', { globs: ['src/**/*.js'], pattern: '(' }));
    repo.write('src/x.js', 'fine();\n');
    repo.git('add', 'src/x.js');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    // The second entry of extended.json starts at line 34 (its "id" line).
    expect(r.stdout).toMatch(/\.agents\/constraints\/extended\.json:34\s+error\s+constraint "f-broken"/);
  });
});
