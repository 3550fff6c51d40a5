/** Matching through real `git commit` runs: multi-line added-lines hits, NUL bytes, the time budget, FINDINGS_SKIP. */
import { describe, expect, it } from 'vitest';
import type { TestRepo } from '../helpers/repo.js';
import { commit, constraint, hookedRepo, stageIndex } from './setup.js';
import type { ConstraintEntry } from '../../src/types.js';

async function repoWith(...entries: ConstraintEntry[]): Promise<TestRepo> {
  const repo = await hookedRepo();
  stageIndex(repo, ...entries);
  repo.git('commit', '-q', '--no-verify', '-m', 'index');
  return repo;
}

function stage(repo: TestRepo, file: string, content: string | Buffer): void {
  repo.write(file, content as string);
  repo.git('add', file);
}

describe('added-lines and multi-line hits', () => {
  it('`pass` added under an existing `try:` is caught by try:\\n\\s*pass', async () => {
    const repo = await repoWith(constraint('pass', { pattern: 'try:\\n\\s*pass', globs: ['**/*.py'], scope: 'added-lines' }));
    stage(repo, 'a.py', 'def f():\n    try:\n        run()\n    except E:\n        log()\n');
    expect(commit(repo, []).code).toBe(0);
    stage(repo, 'a.py', 'def f():\n    try:\n        pass\n        run()\n    except E:\n        log()\n');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('constraint/pass');
  });

  it('a hit whose lines are all old still does not count', async () => {
    const repo = await repoWith(constraint('pass', { pattern: 'try:\\n\\s*pass', globs: ['**/*.py'], scope: 'added-lines' }));
    stage(repo, 'a.py', 'try:\n    pass\nexcept E:\n    log()\n');
    repo.git('commit', '-q', '--no-verify', '-m', 'old hit');
    stage(repo, 'a.py', 'try:\n    pass\nexcept E:\n    log()\nx = 1\n');
    expect(commit(repo, []).code).toBe(0);
  });
});

describe('binary files', () => {
  it('a text file with a NUL byte is judged as text', async () => {
    const repo = await repoWith(constraint('log', { pattern: 'console\\.log' }));
    stage(repo, 'a.js', 'console.log(x) // \0\n');
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('constraint/log');
  });

  it('a binary file that an active constraint covers is skipped with a warning naming it', async () => {
    const repo = await repoWith(constraint('any', { pattern: 'zzz', globs: ['**'] }));
    repo.write('x.txt', '');
    stage(repo, 'image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xfe]));
    const r = commit(repo, []);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/image\.png.*warning.*binary.*any/);
  });
});

describe('the time budget', () => {
  const slow = '[a-z]{1000}[0-9]';
  // One 1 MB line that does hold a match (at its end), so the prefilter cannot rule it out.
  const line = `${'a'.repeat(1_000_000)}1\n`;

  it('an active constraint that overruns its budget fails closed', async () => {
    const repo = await repoWith(constraint('slow', { pattern: slow, globs: ['**/*.txt'] }));
    stage(repo, 'big.txt', line);
    const r = commit(repo, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toMatch(/slow.*could not be evaluated: matching took longer than the \d+ ms budget/);
  });

  it('a shadow constraint that overruns warns, and the commit lands', async () => {
    const repo = await repoWith(constraint('slow', { pattern: slow, globs: ['**/*.txt'], status: 'shadow' }));
    stage(repo, 'big.txt', line);
    const r = commit(repo, []);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/warning.*could not be evaluated: matching took longer/);
  });
});

describe('FINDINGS_SKIP', () => {
  it('prints each constraint it skipped and warns about ids that match no constraint', async () => {
    const repo = await repoWith(constraint('active'), constraint('other', { pattern: 'nothing' }));
    stage(repo, 'app.js', 'eval(1);\n');
    const r = commit(repo, [], { FINDINGS_SKIP: 'active,typo' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('skipped constraint active (Title of active)');
    expect(r.stdout).not.toContain('skipped constraint other');
    expect(r.stdout).toMatch(/warning.*FINDINGS_SKIP names "typo", which matches no constraint/);
  });
});
