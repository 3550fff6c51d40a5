/**
 * Staged blobs read from their loose files (src/git/loose-objects.ts) must be exactly what git
 * hands out, and anything else must go back to git: packed objects, objects of another type,
 * a file that does not hash to its name, a corrupt file, a SHA-256 repository. Real repositories.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readObjects } from '../../src/git/core.js';
import { readLooseBlob } from '../../src/git/loose-objects.js';
import { probeRepository } from '../../src/git/probe.js';
import { makeRepo, repoAt, tempDir, type TestRepo } from '../helpers/repo.js';

function staged(repo: TestRepo, rel: string, content: string | Buffer): string {
  repo.write(rel, content);
  repo.git('add', rel);
  return repo.git('rev-parse', `:${rel}`).trim();
}

const objectsOf = (repo: TestRepo): string => path.join(repo.root, '.git/objects');
const looseFile = (repo: TestRepo, sha: string): string => path.join(objectsOf(repo), sha.slice(0, 2), sha.slice(2));

/** Replaces an object file's bytes (git writes them read-only). */
function overwrite(file: string, data: Buffer): void {
  if (existsSync(file)) chmodSync(file, 0o644);
  writeFileSync(file, data);
}

describe('loose blobs', () => {
  it('reads a staged blob from its loose file, byte for byte', () => {
    const repo = makeRepo();
    const content = Buffer.concat([Buffer.from('const a = 1;\r\n\u00e9\u{1F600}\n'), Buffer.from([0, 255, 10])]);
    const sha = staged(repo, 'src/a.js', content);
    expect(existsSync(looseFile(repo, sha))).toBe(true);
    expect(readLooseBlob(objectsOf(repo), sha)).toEqual(content);
    expect(readLooseBlob(objectsOf(repo), staged(repo, 'empty.txt', ''))).toEqual(Buffer.alloc(0));
  });

  it('gives nothing for a packed blob, a tree, a corrupt file, a file that is another object, or a name that is not a sha', () => {
    const repo = makeRepo();
    const a = staged(repo, 'a.txt', 'alpha\n');
    repo.commitAll('a');
    repo.git('gc', '-q', '--prune=now');
    expect(existsSync(looseFile(repo, a))).toBe(false);
    expect(readLooseBlob(objectsOf(repo), a)).toBeNull();
    const b = staged(repo, 'b.txt', 'beta\n');
    const c = staged(repo, 'c.txt', 'gamma\n');
    const tree = repo.git('write-tree').trim();
    expect(readLooseBlob(objectsOf(repo), tree)).toBeNull();
    // c's file holds b's object: it does not hash to c's name.
    overwrite(looseFile(repo, c), readFileSync(looseFile(repo, b)));
    expect(readLooseBlob(objectsOf(repo), c)).toBeNull();
    overwrite(looseFile(repo, b), Buffer.from('not zlib at all'));
    expect(readLooseBlob(objectsOf(repo), b)).toBeNull();
    // A well-formed object whose header lies about its size.
    const d = staged(repo, 'd.txt', 'delta\n');
    overwrite(looseFile(repo, d), deflateSync(Buffer.from('blob 99\0delta\n')));
    expect(readLooseBlob(objectsOf(repo), d)).toBeNull();
    expect(readLooseBlob(objectsOf(repo), 'HEAD')).toBeNull();
    expect(readLooseBlob(objectsOf(repo), ':a.txt')).toBeNull();
  });

  it('readObjects with the objects folder: loose blobs in-process, the rest (packed, by name, missing) through git', async () => {
    const repo = makeRepo();
    const packed = staged(repo, 'packed.txt', 'packed\n');
    repo.commitAll('first');
    repo.git('gc', '-q', '--prune=now');
    const loose = staged(repo, 'loose.txt', 'loose\n');
    const missing = '0123456789012345678901234567890123456789';
    const names = [loose, packed, ':packed.txt', missing];
    const withLoose = await readObjects(repo.root, names, { looseObjects: objectsOf(repo) });
    const viaGit = await readObjects(repo.root, names);
    expect(withLoose.get(loose)?.toString()).toBe('loose\n');
    expect(withLoose.get(packed)?.toString()).toBe('packed\n');
    expect(withLoose.get(':packed.txt')?.toString()).toBe('packed\n');
    expect(withLoose.get(missing)).toBeNull();
    expect([...withLoose].sort()).toEqual([...viaGit].sort());
  });

  it('a file swapped under a blob name is read from git instead: the content is always the named object', async () => {
    const repo = makeRepo();
    const a = staged(repo, 'a.txt', 'the real a\n');
    const b = staged(repo, 'b.txt', 'the real b\n');
    repo.commitAll('both');
    repo.git('gc', '-q', '--prune=now');
    // A stray loose file under a's name that holds b's object: it does not hash to a, so git answers (from its pack).
    const aFile = looseFile(repo, a);
    mkdirSync(path.dirname(aFile), { recursive: true });
    overwrite(aFile, deflateSync(Buffer.from('blob 11\0the real b\n')));
    const read = await readObjects(repo.root, [a, b], { looseObjects: objectsOf(repo) });
    expect(read.get(b)?.toString()).toBe('the real b\n');
    expect(read.get(a)?.toString()).toBe('the real a\n');
  });

  it('reads a SHA-256 repository too', () => {
    const root = tempDir('findings-sha256-');
    const init = makeRepo();
    init.git('init', '-q', '--object-format=sha256', root);
    const repo = repoAt(root);
    const sha = staged(repo, 'a.txt', 'sha-256 content\n');
    expect(sha).toHaveLength(64);
    expect(readLooseBlob(path.join(root, '.git/objects'), sha)?.toString()).toBe('sha-256 content\n');
  });

  it('the probe names the objects folder git uses, GIT_OBJECT_DIRECTORY included', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    repo.commitAll();
    expect((await probeRepository(repo.root))?.objects).toBe(path.join(repo.root, '.git', 'objects'));
    const elsewhere = tempDir('findings-objects-');
    const saved = process.env['GIT_OBJECT_DIRECTORY'];
    process.env['GIT_OBJECT_DIRECTORY'] = elsewhere;
    try {
      expect((await probeRepository(repo.root))?.objects).toBe(elsewhere);
    } finally {
      if (saved === undefined) delete process.env['GIT_OBJECT_DIRECTORY'];
      else process.env['GIT_OBJECT_DIRECTORY'] = saved;
    }
  });
});
