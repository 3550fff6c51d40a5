/**
 * Writing outputs with a worker thread too (compiler/parallel-write.ts): the same bytes as the
 * one-thread path — the golden corpora compiled through the worker path match their committed
 * expected trees — every file whole, no temp file left, a failure in either lane reported.
 * The worker runs the built copy (dist/compiler/write-worker.js), like src/match/bounded.ts.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lanesByFolder, writeFilesInLanes } from '../../compiler/parallel-write.js';
import { runCompile } from '../../compiler/run.js';
import { TEMP_FILE } from '../../src/fs/atomic.js';
import { FIXTURES, makeRepo, tempDir } from '../helpers/repo.js';

function walk(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (rel === '' && e.name === '.git') continue;
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(root, child));
    else out.push(child);
  }
  return out.sort();
}

const job = (dir: string, name: string, data = `${name}\n`) => ({ abs: path.join(dir, name), data, display: name });

describe('lanesByFolder', () => {
  it('splits by folder into two lanes of about equal size, never splitting a folder, the same way every time', () => {
    const jobs = [
      ...Array.from({ length: 5 }, (_, i) => job('/r/a', `a${i}`)),
      ...Array.from({ length: 4 }, (_, i) => job('/r/b', `b${i}`)),
      ...Array.from({ length: 3 }, (_, i) => job('/r/c', `c${i}`)),
      ...Array.from({ length: 2 }, (_, i) => job('/r/d', `d${i}`)),
    ];
    const [one, two] = lanesByFolder(jobs);
    const folders = (lane: typeof one) => [...new Set(lane.map((j) => path.dirname(j.abs)))].sort();
    expect(folders(one)).toEqual(['/r/a', '/r/d']);
    expect(folders(two)).toEqual(['/r/b', '/r/c']);
    expect(one.length + two.length).toBe(jobs.length);
    expect(lanesByFolder([...jobs].reverse()).map(folders)).toEqual([folders(one), folders(two)]);
  });
});

describe('writeFilesInLanes', () => {
  it('writes through a worker thread too once there are enough files: every byte in place, no temp file left', async () => {
    const root = tempDir();
    const dirs = ['x', 'y', 'z'].map((d) => path.join(root, d));
    for (const d of dirs) mkdirSync(d);
    const jobs = dirs.flatMap((d, k) => Array.from({ length: 40 }, (_, i) => job(d, `f${i}.md`, `${'é'.repeat(i * 50)} ${k}\n`)));
    const inWorker = await writeFilesInLanes(jobs, 1);
    expect(inWorker).toBeGreaterThan(0);
    expect(inWorker).toBeLessThan(jobs.length);
    for (const j of jobs) expect(readFileSync(j.abs, 'utf8')).toBe(j.data);
    for (const d of dirs) expect(readdirSync(d).filter((n) => TEMP_FILE.test(n))).toEqual([]);
  });

  it('stays on this thread below the threshold', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'a'));
    mkdirSync(path.join(root, 'b'));
    const jobs = [job(path.join(root, 'a'), 'one.md'), job(path.join(root, 'b'), 'two.md')];
    expect(await writeFilesInLanes(jobs, 3)).toBe(0);
    expect(readFileSync(jobs[1]!.abs, 'utf8')).toBe('two.md\n');
  });

  it("reports a failure in the worker's lane once both lanes have stopped, leaving no temp file", async () => {
    const root = tempDir();
    const ok = path.join(root, 'ok');
    mkdirSync(ok);
    // The worker's lane (the smaller folder) targets a folder that does not exist.
    const jobs = [...Array.from({ length: 6 }, (_, i) => job(ok, `f${i}.md`)), job(path.join(root, 'missing'), 'g.md')];
    await expect(writeFilesInLanes(jobs, 1)).rejects.toThrow(/cannot write g\.md.*ENOENT/);
    for (let i = 0; i < 6; i += 1) expect(readFileSync(path.join(ok, `f${i}.md`), 'utf8')).toBe(`f${i}.md\n`);
    expect(readdirSync(ok).filter((n) => TEMP_FILE.test(n))).toEqual([]);
  });
});

describe('compile through the worker path', () => {
  const DIR = path.join(FIXTURES, 'compiler');
  const cases = readdirSync(DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(DIR, e.name, 'input')))
    .map((e) => ({ name: e.name, input: path.join(DIR, e.name, 'input'), expected: path.join(DIR, e.name, 'expected') }));
  cases.push({ name: 'agentops', input: path.join(FIXTURES, 'agentops'), expected: path.join(DIR, 'agentops-expected') });

  for (const c of cases) {
    it(`${c.name}: the same tree, byte for byte, as the committed expected one`, async () => {
      const repo = makeRepo();
      cpSync(c.input, repo.root, { recursive: true, filter: (src) => !src.endsWith('README.md') || !src.includes('agentops') });
      const first = await runCompile(repo.root, { check: false, parallelWriteMin: 1 });
      writeFileSync(path.join(repo.root, '.diagnostics.json'), `${JSON.stringify(first.diagnostics, null, 2)}\n`);
      const got = walk(repo.root);
      expect(got).toEqual(walk(c.expected));
      for (const f of got)
        expect(readFileSync(path.join(repo.root, f)).equals(readFileSync(path.join(c.expected, f))), `${f} differs`).toBe(true);
    });
  }
});
