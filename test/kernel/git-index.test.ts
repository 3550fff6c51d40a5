/**
 * src/git/git-index.ts reads a few stage-0 entries of git's index file, or says it cannot. Every
 * answer is compared with `git ls-files --stage` on real indexes git wrote: versions 2, 3 and 4,
 * long and non-ASCII names, SHA-256; and each form it must refuse.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readIndexEntries as readEntries, type IndexEntry } from '../../src/git/git-index.js';
import { asTopLevel } from '../../src/git/project-root.js';

/** The reader with plain names: a test repository's project root is its top level. */
const readIndexEntries = (data: Buffer, names: readonly string[], bytes: 20 | 32): Map<string, IndexEntry> | null =>
  readEntries(data, names.map(asTopLevel), bytes) as unknown as Map<string, IndexEntry> | null;
import { GIT_ENV, makeRepo, repoAt, tempDir, type TestRepo } from '../helpers/repo.js';

const NAMES = ['a.txt', 'src/b.js', 'src/sub/c.md', 'zeta/ünï.txt', '.agents/constraints/index.json', 'exec.sh', 'link'];
/** Longer than the 0xFFF a v2/v3 entry's length field can hold: only index entries, never files. */
const LONG = `${`${'d'.repeat(200)}/`.repeat(21)}end.txt`;
/** Sorted just before LONG, sharing 2,010 bytes with it: a v4 index keeps that prefix for LONG. */
const BEFORE_LONG = `${`${'d'.repeat(200)}/`.repeat(10)}a.txt`;

function populated(options: { objectFormat?: 'sha256' } = {}): TestRepo {
  let repo: TestRepo;
  if (options.objectFormat) {
    repo = repoAt(tempDir('findings-sha256-'));
    repo.git('init', '-q', `--object-format=${options.objectFormat}`);
  } else {
    repo = makeRepo();
  }
  for (const [i, n] of NAMES.filter((x) => x !== 'link').entries()) repo.write(n, `content ${i}\n`);
  repo.git('add', '-A');
  repo.git('update-index', '--chmod=+x', 'exec.sh');
  // A symlink entry and a name too long for any file system, straight into the index.
  const blob = repo.git('hash-object', '-w', 'a.txt').trim();
  repo.git('update-index', '--add', '--cacheinfo', `120000,${blob},link`);
  repo.git('update-index', '--add', '--cacheinfo', `100644,${blob},${LONG}`);
  repo.git('update-index', '--add', '--cacheinfo', `100644,${blob},${BEFORE_LONG}`);
  return repo;
}

/** `git ls-files --stage` as path → entry, stage 0 only. */
function listed(repo: TestRepo): Map<string, { mode: string; sha: string }> {
  const out = repo.git('ls-files', '--stage', '-z');
  const map = new Map<string, { mode: string; sha: string }>();
  for (const record of out.split('\0').filter((r) => r !== '')) {
    const [meta, name] = [record.slice(0, record.indexOf('\t')), record.slice(record.indexOf('\t') + 1)];
    const [mode, sha, stage] = meta.split(' ');
    if (stage === '0') map.set(name, { mode: mode!, sha: sha! });
  }
  return map;
}

const indexOf = (repo: TestRepo): Buffer => readFileSync(path.join(repo.root, '.git/index'));

describe('readIndexEntries', () => {
  for (const version of [2, 3, 4]) {
    it(`index version ${version}: every entry as git lists it; absent names absent`, () => {
      const repo = populated();
      repo.git('update-index', '--index-version', String(version));
      if (version === 3) repo.git('update-index', '--skip-worktree', 'src/b.js'); // an extended flag
      const expected = listed(repo);
      expect(expected.size).toBe(NAMES.length + 2);
      const found = readIndexEntries(indexOf(repo), [...expected.keys(), 'missing.txt', 'src'], 20);
      expect(found).toEqual(expected);
    });
  }

  it('a SHA-256 repository: 32-byte names', () => {
    const repo = populated({ objectFormat: 'sha256' });
    const expected = listed(repo);
    expect([...expected.values()][0]!.sha).toHaveLength(64);
    expect(readIndexEntries(indexOf(repo), [...expected.keys()], 32)).toEqual(expected);
  });

  it('an index with optional extensions (cache tree, untracked cache) is read', () => {
    const repo = populated();
    repo.git('commit', '-q', '--no-verify', '-m', 'x'); // writes the TREE extension
    repo.git('update-index', '--untracked-cache');
    repo.git('status', '--porcelain'); // fills UNTR
    const data = indexOf(repo);
    expect(data.includes(Buffer.from('TREE'))).toBe(true);
    expect(readIndexEntries(data, ['a.txt'], 20)).toEqual(new Map([['a.txt', listed(repo).get('a.txt')]]));
  });

  it('refuses a split index, whose entries live partly in another file', () => {
    const repo = populated();
    repo.git('update-index', '--split-index');
    repo.write('a.txt', 'changed\n');
    repo.git('add', 'a.txt');
    expect(readIndexEntries(indexOf(repo), ['a.txt'], 20)).toBeNull();
  });

  it('refuses a wanted entry in conflict or only intended to be added; other names still read', () => {
    const repo = populated();
    const blob = repo.git('hash-object', '-w', 'a.txt').trim();
    execFileSync('git', ['update-index', '--index-info'], {
      cwd: repo.root,
      env: { ...process.env, ...GIT_ENV },
      input: `100644 ${blob} 1\tbase-only.txt\n100644 ${blob} 1\tboth.txt\n100644 ${blob} 2\tboth.txt\n`,
    });
    const conflicted = indexOf(repo);
    expect(listed(repo).has('both.txt')).toBe(false); // in conflict: no stage-0 entry
    expect(readIndexEntries(conflicted, ['both.txt'], 20)).toBeNull();
    expect(readIndexEntries(conflicted, ['base-only.txt'], 20)).toBeNull(); // one entry, at stage 1
    expect(readIndexEntries(conflicted, ['a.txt'], 20)?.get('a.txt')?.sha).toBe(blob);
    repo.write('new.txt', 'x\n');
    repo.git('add', '-N', 'new.txt');
    expect(readIndexEntries(indexOf(repo), ['new.txt'], 20)).toBeNull();
  });

  it('refuses what is not a whole index: another signature or version, a file cut short, an unknown required extension', () => {
    const data = indexOf(populated());
    expect(readIndexEntries(Buffer.from('not an index at all'), ['a.txt'], 20)).toBeNull();
    const v5 = Buffer.from(data);
    v5.writeUInt32BE(5, 4);
    expect(readIndexEntries(v5, ['a.txt'], 20)).toBeNull();
    for (const cut of [13, 60, data.length - 30])
      expect(readIndexEntries(data.subarray(0, cut), ['a.txt'], 20), `cut at ${cut}`).toBeNull();
    // A lower-case signature is a required extension: git would refuse to read what it does not know.
    const extension = Buffer.concat([Buffer.from('abcd'), Buffer.from([0, 0, 0, 0])]);
    const withRequired = Buffer.concat([data.subarray(0, data.length - 20), extension, data.subarray(data.length - 20)]);
    expect(readIndexEntries(withRequired, ['a.txt'], 20)).toBeNull();
    const optional = Buffer.concat([
      data.subarray(0, data.length - 20),
      Buffer.from('ABCD'),
      Buffer.from([0, 0, 0, 0]),
      data.subarray(data.length - 20),
    ]);
    expect(readIndexEntries(optional, ['a.txt'], 20)?.has('a.txt')).toBe(true);
  });
});
