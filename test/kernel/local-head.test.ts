/**
 * src/git/local-head.ts names HEAD's commit from the git folder's files, the same as
 * `git rev-parse --verify HEAD`, or says it cannot; and src/git/local-repository.ts says when a
 * repository's files are in the formats it reads.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localHead, packedRef } from '../../src/git/local-head.js';
import { objectHashBytes } from '../../src/git/local-repository.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const gitDir = (repo: TestRepo): string => path.join(repo.root, '.git');
const revParse = (repo: TestRepo): string | null => {
  const r = repo.tryGit(['rev-parse', '--verify', '-q', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : null;
};

function withCommits(): TestRepo {
  const repo = makeRepo({ 'a.txt': 'a\n' });
  repo.commitAll('one');
  repo.write('a.txt', 'b\n');
  repo.commitAll('two');
  return repo;
}

describe('localHead', () => {
  it('agrees with git: a loose branch, a packed one, a detached HEAD, a symbolic ref to a branch', () => {
    const repo = withCommits();
    expect(localHead(gitDir(repo))).toBe(revParse(repo));
    repo.git('pack-refs', '--all', '--prune'); // refs/heads/main now only in packed-refs
    expect(localHead(gitDir(repo))).toBe(revParse(repo));
    repo.git('checkout', '-q', '--detach', 'HEAD~1');
    expect(localHead(gitDir(repo))).toBe(revParse(repo));
    repo.git('symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    repo.git('symbolic-ref', 'HEAD', 'refs/heads/alias');
    expect(localHead(gitDir(repo))).toBe(revParse(repo));
    expect(revParse(repo)).not.toBeNull();
  });

  it('an unborn branch is null, with or without a packed-refs file', () => {
    const repo = withCommits();
    repo.git('checkout', '-q', '--orphan', 'fresh');
    expect(revParse(repo)).toBeNull();
    expect(localHead(gitDir(repo))).toBeNull();
    repo.git('pack-refs', '--all');
    expect(localHead(gitDir(repo))).toBeNull();
    expect(localHead(gitDir(makeRepo()))).toBeNull();
  });

  it('anything it cannot vouch for is undefined', () => {
    const repo = withCommits();
    const dir = gitDir(repo);
    const head = (text: string): string | null | undefined => {
      writeFileSync(path.join(dir, 'HEAD'), text);
      return localHead(dir);
    };
    expect(head('garbage\n')).toBeUndefined();
    expect(head('ref: refs/heads/../../config\n')).toBeUndefined();
    expect(head('ref: HEAD\n')).toBeUndefined();
    expect(head('ref: refs/heads/x.lock\n')).toBeUndefined();
    // A loop of symbolic refs, a ref that is a folder, a corrupt ref file.
    writeFileSync(path.join(dir, 'refs/heads/loop'), 'ref: refs/heads/loop\n');
    expect(head('ref: refs/heads/loop\n')).toBeUndefined();
    mkdirSync(path.join(dir, 'refs/heads/folder/inner'), { recursive: true });
    expect(head('ref: refs/heads/folder\n')).toBeUndefined();
    writeFileSync(path.join(dir, 'refs/heads/bad'), 'not a name\n');
    expect(head('ref: refs/heads/bad\n')).toBeUndefined();
    // HEAD itself a symlink (git's old form): git would follow it; this reader does not.
    rmSync(path.join(dir, 'HEAD'));
    symlinkSync('refs/heads/main', path.join(dir, 'HEAD'));
    expect(localHead(dir)).toBeUndefined();
  });

  it('packedRef reads packed-refs lines, skipping the header and peeled lines', () => {
    const sha = 'a'.repeat(40);
    const text = `# pack-refs with: peeled fully-peeled sorted \n${sha} refs/heads/main\n^${'b'.repeat(40)}\n${'c'.repeat(40)} refs/tags/v1\n`;
    expect(packedRef(text, 'refs/heads/main')).toBe(sha);
    expect(packedRef(text, 'refs/heads/other')).toBeNull();
    expect(packedRef(`zzz refs/heads/main\n`, 'refs/heads/main')).toBeUndefined();
    expect(packedRef(`nospace\n`, 'refs/heads/main')).toBeUndefined();
  });
});

describe('objectHashBytes', () => {
  it('SHA-1 by default and with the object format said; SHA-256 when said', () => {
    expect(objectHashBytes('[core]\n\trepositoryformatversion = 0\n\tbare = false\n')).toBe(20);
    expect(objectHashBytes('[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = sha1\n')).toBe(20);
    expect(objectHashBytes('[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectFormat = sha256\n')).toBe(32);
    expect(objectHashBytes('[Extensions] objectformat = SHA256 \n')).toBe(32);
    expect(objectHashBytes('[extensions]\n\t# a comment\n\tworktreeConfig = true\n')).toBe(20);
  });

  it('null for any other extension (the reftable backend above all), or a line it cannot read there', () => {
    expect(objectHashBytes('[extensions]\n\trefStorage = reftable\n')).toBeNull();
    expect(objectHashBytes('[extensions]\n\tobjectformat = sha256\n\tpartialclone = origin\n')).toBeNull();
    expect(objectHashBytes('[extensions "x"]\n\ty = z\n')).toBeNull();
    expect(objectHashBytes('[extensions]\n\tobjectformat = "sha256"\n')).toBeNull();
    expect(objectHashBytes('[extensions]\n\tobjectformat = md5\n')).toBeNull();
  });

  it('a repository git made with SHA-256 says so in its config', () => {
    const repo = makeRepo();
    rmSync(path.join(repo.root, '.git'), { recursive: true });
    repo.git('init', '-q', '--object-format=sha256');
    const config = repo.git('config', '--file', '.git/config', '--list');
    expect(config).toContain('extensions.objectformat=sha256');
    expect(objectHashBytes(repo.read('.git/config'))).toBe(32);
  });
});
