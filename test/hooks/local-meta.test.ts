/**
 * hooks/local-meta.ts answers the early reads from the repository's files: exactly what
 * `git cat-file --batch` answers for the same names, or null (then git is asked). Compared on
 * real repositories across the ways a commit can touch the constraint index and config.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAD_COMMIT, HEAD_EXTENDED, HEAD_INDEX, STAGED_META } from '../../hooks/early-reads.js';
import { RAW_DIFF_ARGS } from '../../src/git/core.js';
import { headEntry, localMeta } from '../../hooks/local-meta.js';
import { parseCatFileObjects, type RawChange } from '../../src/git/core.js';
import { localRepository } from '../../src/git/local-repository.js';
import { GIT_ENV, makeRepo, type TestRepo } from '../helpers/repo.js';
import { constraint, indexJson } from './setup.js';

const INDEX = '.agents/constraints/index.json';
const CONFIG = '.agents/config.json';
const EXTENDED = '.agents/constraints/extended.json';
const NAMES = [...STAGED_META, HEAD_INDEX, HEAD_EXTENDED, HEAD_COMMIT];

const gitOut = (repo: TestRepo, args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Buffer =>
  execFileSync('git', args, { cwd: repo.root, env: { ...process.env, ...GIT_ENV, ...env }, input: input ?? '' });

/** What the early reads would get from git: name → [object name, content] (HEAD's commit: its name only). */
function fromGit(repo: TestRepo, env: NodeJS.ProcessEnv = {}): Map<string, [string, string] | null> {
  const out = gitOut(repo, ['cat-file', '--batch'], env, `${NAMES.join('\n')}\n`);
  const parsed = parseCatFileObjects(out, NAMES);
  return new Map(NAMES.map((n) => [n, fromObject(n, parsed.get(n) ?? null)]));
}

function fromFiles(repo: TestRepo, env: NodeJS.ProcessEnv = {}): Map<string, [string, string] | null> | null {
  const local = localRepository(repo.root, env);
  expect(local).not.toBeNull();
  const meta = localMeta(local!, gitOut(repo, ['diff', '--cached', ...RAW_DIFF_ARGS], env), env);
  if (meta === null) return null;
  const objects = [meta.stagedIndex, meta.stagedConfig, meta.stagedExtended, meta.headIndex, meta.headExtended, meta.headCommit];
  return new Map(NAMES.map((n, i) => [n, fromObject(n, objects[i] ?? null)]));
}

const fromObject = (name: string, o: { id: string; data: Buffer } | null): [string, string] | null =>
  o === null ? null : [o.id, name === HEAD_COMMIT ? '' : o.data.toString('utf8')];

function committedIndex(): TestRepo {
  const repo = makeRepo({ 'a.js': 'ok();\n' });
  repo.write(INDEX, indexJson(constraint('c-one')));
  repo.write(CONFIG, '{"match_budget_ms": 250}\n');
  repo.commitAll('index');
  return repo;
}

describe('localMeta answers as git does', () => {
  const cases: [string, (repo: TestRepo) => void][] = [
    [
      'nothing of the index staged',
      (repo) => {
        repo.write('a.js', 'more();\n');
        repo.git('add', 'a.js');
      },
    ],
    [
      'the index edited and staged (its HEAD version a loose object)',
      (repo) => {
        repo.write(INDEX, indexJson(constraint('c-one'), constraint('c-two')));
        repo.git('add', INDEX);
      },
    ],
    ['the index and config deleted', (repo) => repo.git('rm', '-q', INDEX, CONFIG)],
    [
      'the extended index added beside the index',
      (repo) => {
        repo.write(EXTENDED, indexJson(constraint('c-two')));
        repo.git('add', EXTENDED);
      },
    ],
    [
      'the extended index edited and staged (its HEAD version a loose object)',
      (repo) => {
        repo.write(EXTENDED, indexJson(constraint('c-two')));
        repo.commitAll('extended');
        repo.write(EXTENDED, indexJson(constraint('c-three')));
        repo.git('add', EXTENDED);
      },
    ],
    ['the index renamed away', (repo) => repo.git('mv', INDEX, '.agents/constraints/old.json')],
    [
      'the index staged, then edited again in the working tree',
      (repo) => {
        repo.write(INDEX, indexJson(constraint('c-two')));
        repo.git('add', INDEX);
        repo.write(INDEX, 'not what is staged\n');
      },
    ],
    [
      'a detached HEAD with packed refs',
      (repo) => {
        repo.git('pack-refs', '--all', '--prune');
        repo.git('checkout', '-q', '--detach');
      },
    ],
  ];
  for (const [name, change] of cases) {
    it(name, () => {
      const repo = committedIndex();
      change(repo);
      expect(fromFiles(repo)).toEqual(fromGit(repo));
    });
  }

  it('an unborn branch: the index as added, nothing at HEAD', () => {
    const repo = makeRepo();
    repo.write(INDEX, indexJson(constraint('c-one')));
    repo.git('add', INDEX);
    const files = fromFiles(repo);
    expect(files?.get(HEAD_COMMIT)).toBeNull();
    expect(files).toEqual(fromGit(repo));
  });

  it('the index file GIT_INDEX_FILE names, not .git/index (git commit <path>)', () => {
    const repo = committedIndex();
    repo.write(INDEX, indexJson(constraint('c-one', { status: 'shadow' })));
    repo.git('add', INDEX); // staged in .git/index, but not in the index the commit uses
    const other = path.join(repo.root, '.git', 'other-index');
    gitOut(repo, ['read-tree', 'HEAD'], { GIT_INDEX_FILE: other });
    const env = { GIT_INDEX_FILE: other };
    const files = fromFiles(repo, env);
    expect(files).toEqual(fromGit(repo, env));
    expect(files?.get(STAGED_META[0])).toEqual(files?.get(HEAD_INDEX)); // HEAD's version, not the staged shadow one
  });

  it('null when a blob is only in a pack: the HEAD version of a changed index after gc', () => {
    const repo = committedIndex();
    repo.git('gc', '-q', '--prune=now');
    repo.write(INDEX, indexJson(constraint('c-two')));
    repo.git('add', INDEX);
    expect(fromFiles(repo)).toBeNull();
    // Unchanged, the staged version is still in the working tree: no pack needed.
    repo.git('reset', '-q');
    repo.git('checkout', '--', INDEX);
    expect(fromFiles(repo)).toEqual(fromGit(repo));
  });
});

describe('headEntry', () => {
  const staged = { mode: '100644', sha: 'b'.repeat(40) };
  const change = (c: Partial<RawChange>): RawChange => ({
    status: 'M',
    srcMode: '100644',
    dstMode: '100644',
    srcSha: 'a'.repeat(40),
    dstSha: 'b'.repeat(40),
    path: INDEX,
    ...c,
  });

  it('unchanged: the staged entry, or absent', () => {
    expect(headEntry([change({ path: 'x.js' })], INDEX, staged)).toEqual(staged);
    expect(headEntry([], INDEX, undefined)).toBeNull();
  });

  it('modified, deleted, renamed away: the diff source; added or renamed into place: absent', () => {
    expect(headEntry([change({})], INDEX, staged)).toEqual({ mode: '100644', sha: 'a'.repeat(40) });
    expect(headEntry([change({ status: 'D', dstSha: '0'.repeat(40) })], INDEX, undefined)?.sha).toBe('a'.repeat(40));
    expect(headEntry([change({ status: 'R', path: 'moved.json', oldPath: INDEX })], INDEX, undefined)?.sha).toBe('a'.repeat(40));
    expect(headEntry([change({ status: 'A', srcSha: '0'.repeat(40) })], INDEX, staged)).toBeNull();
    expect(headEntry([change({ status: 'R', oldPath: 'elsewhere.json' })], INDEX, staged)).toBeNull();
  });

  it('undefined when the diff and the index file disagree, or the diff is not plain', () => {
    expect(headEntry([change({ dstSha: 'c'.repeat(40) })], INDEX, staged)).toBeUndefined();
    expect(headEntry([change({})], INDEX, undefined)).toBeUndefined();
    expect(headEntry([change({ status: 'U' })], INDEX, staged)).toBeUndefined();
    expect(headEntry([change({}), change({ status: 'R', path: 'x', oldPath: INDEX })], INDEX, staged)).toBeUndefined();
  });
});
