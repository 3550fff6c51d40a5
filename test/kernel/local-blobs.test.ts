/**
 * Staged blobs read from disk (src/git/local-blobs.ts) must be exactly what git hands out, and
 * anything else must go back to git: a working-tree file edited after staging, a symlink, a
 * FIFO, packed objects, objects of another type, a file that does not hash to its name, a
 * corrupt file; SHA-256 repositories too. Real repositories.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readLocalBlobs, readLooseBlob } from '../../src/git/local-blobs.js';
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

  it('reads the working-tree copy when it is still the staged blob, else the loose object, else leaves it to git', () => {
    const repo = makeRepo();
    const packed = staged(repo, 'packed.txt', 'packed\n');
    repo.commitAll('first');
    repo.git('gc', '-q', '--prune=now');
    // Packed, and gone from the working tree: only git has it.
    rmSync(path.join(repo.root, 'packed.txt'));
    const unchanged = staged(repo, 'unchanged.txt', 'as staged\n');
    const edited = staged(repo, 'edited.txt', 'staged text\n');
    repo.write('edited.txt', 'edited after staging\n');
    const link = staged(repo, 'link.txt', 'link target text\n');
    // The file becomes a symlink to a file with the staged content: never followed.
    repo.write('target.txt', 'link target text\n');
    rmSync(path.join(repo.root, 'link.txt'));
    symlinkSync('target.txt', path.join(repo.root, 'link.txt'));
    rmSync(looseFile(repo, link), { force: true });
    const fifo = staged(repo, 'fifo.txt', 'fifo text\n');
    rmSync(path.join(repo.root, 'fifo.txt'));
    execFileSync('mkfifo', [path.join(repo.root, 'fifo.txt')]);
    rmSync(looseFile(repo, fifo), { force: true });
    // Read from the working tree although its loose object is gone.
    rmSync(looseFile(repo, unchanged), { force: true });
    const entry = (p: string, sha: string, mode = '100644') => ({ path: p, mode, sha });
    const found = readLocalBlobs(repo.root, objectsOf(repo), [
      entry('packed.txt', packed),
      entry('unchanged.txt', unchanged),
      entry('edited.txt', edited),
      entry('link.txt', link),
      entry('fifo.txt', fifo),
    ]);
    expect(found.get(unchanged)?.toString()).toBe('as staged\n');
    expect(found.get(edited)?.toString()).toBe('staged text\n');
    expect([...found.keys()].sort()).toEqual([edited, unchanged].sort());
    // A staged symlink's blob is its link text: the working tree is not read for it.
    const linkText = staged(repo, 'target.txt', 'link target text\n');
    expect(
      readLocalBlobs(repo.root, objectsOf(repo), [entry('target.txt', linkText, '120000')])
        .get(linkText)
        ?.toString(),
    ).toBe('link target text\n');
    rmSync(looseFile(repo, linkText), { force: true });
    expect(readLocalBlobs(repo.root, objectsOf(repo), [entry('target.txt', linkText, '120000')]).size).toBe(0);
  });

  it('a stray loose file under a blob name that holds another object is not read', () => {
    const repo = makeRepo();
    const a = staged(repo, 'a.txt', 'the real a\n');
    staged(repo, 'b.txt', 'the real b\n');
    repo.commitAll('both');
    repo.git('gc', '-q', '--prune=now');
    const aFile = looseFile(repo, a);
    mkdirSync(path.dirname(aFile), { recursive: true });
    overwrite(aFile, deflateSync(Buffer.from('blob 11\0the real b\n')));
    expect(readLooseBlob(objectsOf(repo), a)).toBeNull();
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
