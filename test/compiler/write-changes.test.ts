/**
 * A large compile's writes on two threads (compiler/write-changes.ts): the new folders go to a
 * worker thread while the main thread writes the rest, and the result is the one a single thread
 * writes. The worker scripts in test/fixtures/write-workers/ stand in for the real one where it
 * must misbehave: stop without a reply, find its folders made by someone else, fail, or hang
 * until a signal.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Drift } from '../../compiler/diff.js';
import { sweepTempFiles } from '../../compiler/emit.js';
import { runCompile } from '../../compiler/run.js';
import { writeChanges, workerShare } from '../../compiler/write-changes.js';
import { WriteFailedError } from '../../src/fs/atomic.js';
import { TEMP_FOLDER } from '../../src/fs/new-folder.js';
import { FIXTURES, makeRepo, tempDir } from '../helpers/repo.js';
import { REG } from './entries.js';

const WORKERS = path.join(FIXTURES, 'write-workers');
const workerAt = (name: string): URL => new URL(`file://${path.join(WORKERS, name)}`);

/** Every file under `dir` (relative path → text), temp names included. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else out[p] = readFileSync(path.join(dir, p), 'utf8');
    }
  };
  walk('');
  return out;
}

const tempFolders = (dir: string): string[] => readdirSync(dir).filter((n) => TEMP_FOLDER.test(n));

/** A change set: two new rule folders, files in the existing findings folder, and the index. */
function changes(root: string): { drift: Drift[]; outputs: Map<string, string> } {
  mkdirSync(path.join(root, '.agents/findings'), { recursive: true });
  const outputs = new Map<string, string>();
  for (const id of ['f-1', 'f-2', 'f-3']) {
    outputs.set(`.agents/findings/${id}.md`, `artifact ${id}\n`);
    outputs.set(`.agents/planning-rules/${id}.md`, `rule ${id} ✓\n`);
    outputs.set(`.agents/pre-mortem-checks/${id}.md`, `check ${id}\n`);
  }
  outputs.set('.agents/constraints/index.json', '{"constraints":[]}\n');
  const drift = [...outputs.keys()].map((p): Drift => ({ path: p, kind: 'missing' }));
  return { drift, outputs };
}

const expected = (outputs: Map<string, string>): Record<string, string> =>
  Object.fromEntries([...outputs].map(([p, t]) => [p.replace(/^\.agents\//, ''), t]).sort(([a], [b]) => (a! < b! ? -1 : 1)));

describe('which folders the worker takes (workerShare)', () => {
  it('the new folders of a cold compile, when this thread has the promoted artifacts to write', () => {
    const folders = [
      { whole: false, files: 9000 },
      { whole: true, files: 10_000 },
      { whole: true, files: 10_000 },
    ];
    expect(workerShare(folders, 2000)).toEqual([1, 2]);
  });

  it('with new folders only, the largest goes to the worker and the next to this thread', () => {
    expect(
      workerShare(
        [
          { whole: true, files: 3000 },
          { whole: true, files: 5000 },
        ],
        2000,
      ),
    ).toEqual([1]);
  });

  it('none below the threshold, and none when no folder is new', () => {
    expect(workerShare([{ whole: true, files: 1999 }], 2000)).toEqual([]);
    expect(workerShare([{ whole: false, files: 50_000 }], 1)).toEqual([]);
    expect(workerShare([], 1)).toEqual([]);
  });
});

describe('writing on two threads', () => {
  it('the worker publishes the new folders; the files are those one thread writes', async () => {
    const one = tempDir();
    const two = tempDir();
    const a = changes(one);
    const b = changes(two);
    expect(await writeChanges(one, a.drift, a.outputs, { parallelFrom: Number.POSITIVE_INFINITY })).toEqual({ workerFolders: 0 });
    let alongside = 0;
    expect(await writeChanges(two, b.drift, b.outputs, { parallelFrom: 1, alongside: () => (alongside += 1) })).toEqual({
      workerFolders: 2,
    });
    expect(alongside).toBe(1);
    expect(tree(path.join(two, '.agents'))).toEqual(expected(b.outputs));
    expect(tree(path.join(two, '.agents'))).toEqual(tree(path.join(one, '.agents')));
  });

  it('a compile on two threads writes what one thread writes, and then has nothing to do', async () => {
    const registry = ['f-1', 'f-2', 'f-3'].map((id) => REG(id)).join('');
    const one = makeRepo({ '.agents/findings/registry.jsonl': registry });
    const two = makeRepo({ '.agents/findings/registry.jsonl': registry });
    const single = await runCompile(one.root, { check: false, parallelFrom: Number.POSITIVE_INFINITY });
    const parallel = await runCompile(two.root, { check: false, parallelFrom: 1 });
    expect(parallel).toEqual(single);
    expect(parallel.changes.length).toBeGreaterThan(6);
    expect(tree(path.join(two.root, '.agents'))).toEqual(tree(path.join(one.root, '.agents')));
    expect((await runCompile(two.root, { check: true })).changes).toEqual([]);
  });

  it('a worker that stops without a reply: its temp folder is swept and its folders are written here', async () => {
    const root = tempDir();
    const { drift, outputs } = changes(root);
    const result = await writeChanges(root, drift, outputs, { parallelFrom: 1, workerUrl: workerAt('exits-early.mjs') });
    expect(result).toEqual({ workerFolders: 0 });
    expect(tree(path.join(root, '.agents'))).toEqual(expected(outputs));
    expect(tempFolders(path.join(root, '.agents'))).toEqual([]);
  });

  it('a worker that cannot start: everything is written here', async () => {
    const root = tempDir();
    const { drift, outputs } = changes(root);
    const result = await writeChanges(root, drift, outputs, { parallelFrom: 1, workerUrl: workerAt('no-such-worker.mjs') });
    expect(result).toEqual({ workerFolders: 0 });
    expect(tree(path.join(root, '.agents'))).toEqual(expected(outputs));
  });

  it('a folder someone made meanwhile is written file by file, and their file stays', async () => {
    const root = tempDir();
    const { drift, outputs } = changes(root);
    const result = await writeChanges(root, drift, outputs, { parallelFrom: 1, workerUrl: workerAt('folders-appear.mjs') });
    expect(result).toEqual({ workerFolders: 0 });
    expect(tree(path.join(root, '.agents'))).toEqual({
      ...expected(outputs),
      'planning-rules/theirs.md': 'someone else\n',
      'pre-mortem-checks/theirs.md': 'someone else\n',
    });
  });

  it("the worker's failure fails the write with its error, and the index is not written", async () => {
    const root = tempDir();
    const { drift, outputs } = changes(root);
    const error = await writeChanges(root, drift, outputs, { parallelFrom: 1, workerUrl: workerAt('replies-failed.mjs') }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WriteFailedError);
    expect((error as WriteFailedError).file).toBe('.agents/planning-rules/f-1.md');
    expect(existsSync(path.join(root, '.agents/constraints/index.json'))).toBe(false);
    // This thread's own folder was written meanwhile; each file is whole.
    expect(readFileSync(path.join(root, '.agents/findings/f-1.md'), 'utf8')).toBe('artifact f-1\n');
  });

  it('when both threads fail, one of their errors is reported, and the index is not written', async () => {
    for (const findingsFirst of [true, false]) {
      const root = tempDir();
      const { drift, outputs } = changes(root);
      // This thread's folder fails too: its first target is a folder, which no file can replace.
      mkdirSync(path.join(root, '.agents/findings/f-1.md'));
      const ours = (d: Drift): boolean => d.path.startsWith('.agents/findings/');
      const order = findingsFirst ? drift : [...drift.filter((d) => !ours(d)), ...drift.filter(ours)];
      const error = await writeChanges(root, order, outputs, { parallelFrom: 1, workerUrl: workerAt('replies-failed.mjs') }).catch(
        (e: unknown) => e,
      );
      // Which thread meets its failure first is a matter of timing; either error names its file.
      if (error instanceof WriteFailedError) expect(error.file).toBe('.agents/planning-rules/f-1.md');
      else expect((error as { code?: string }).code).toBe('EISDIR');
      expect(existsSync(path.join(root, '.agents/constraints/index.json'))).toBe(false);
    }
  });

  it("a failure here stops the worker: the write ends at once, and the worker's temp folder is swept", async () => {
    const root = tempDir();
    const { drift, outputs } = changes(root);
    mkdirSync(path.join(root, '.agents/findings/f-1.md'));
    // hangs.mjs never replies: without the stop, this write would wait for ever.
    const error = await writeChanges(root, drift, outputs, { parallelFrom: 1, workerUrl: workerAt('hangs.mjs') }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('EISDIR');
    expect(tempFolders(path.join(root, '.agents'))).toEqual([]);
    expect(existsSync(path.join(root, '.agents/constraints/index.json'))).toBe(false);
  });

  it('the parse memo is still saved when the writes fail before it', async () => {
    const root = tempDir();
    const { drift, outputs } = changes(root);
    // The rule folders' parent cannot be made: `.agents/planning-rules`'s parent is a file here.
    const blocked = drift.map((d) => ({ ...d, path: d.path.replace('.agents/planning-rules/', '.agents/findings/f-1.md/rules/') }));
    const moved = new Map([...outputs].map(([p, t]) => [p.replace('.agents/planning-rules/', '.agents/findings/f-1.md/rules/'), t]));
    writeFileSync(path.join(root, '.agents/findings/f-1.md'), 'a file\n');
    let saved = 0;
    const error = await writeChanges(root, blocked, moved, { parallelFrom: 1, alongside: () => (saved += 1) }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toMatch(/^(ENOTDIR|EEXIST)$/);
    expect(saved).toBe(1);
  });
});

/** Runs run-write.mjs over a new folder of `files` files, and sends SIGINT once `ready(agents)` holds. */
async function interrupted(files: number, worker: string | undefined, ready: (agents: string) => boolean): Promise<string> {
  const root = tempDir();
  const agents = path.join(root, '.agents');
  mkdirSync(agents);
  const args = [path.join(WORKERS, 'run-write.mjs'), root, String(files), ...(worker ? [worker] : [])];
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => (done = true));
  while (!done && !ready(agents)) await new Promise((r) => setTimeout(r, 2));
  child.kill('SIGINT');
  const end = await exited;
  // Either the signal ended it, or it had finished just before.
  expect(end.signal === 'SIGINT' || end.code === 0).toBe(true);
  return root;
}

/** How many files the temp folder being filled holds now (0 when there is none yet). */
function filling(agents: string): number {
  try {
    const tmp = readdirSync(agents).find((n) => TEMP_FOLDER.test(n));
    return tmp === undefined ? 0 : readdirSync(path.join(agents, tmp)).length;
  } catch {
    return 0;
  }
}

describe('a signal while the worker writes', () => {
  it("leaves the worker's temp folder to the next compile's sweep, and no folder", async () => {
    const root = await interrupted(1, 'hangs.mjs', (agents) => existsSync(path.join(agents, 'worker-started')));
    const agents = path.join(root, '.agents');
    expect(tempFolders(agents)).toHaveLength(1);
    expect(existsSync(path.join(agents, 'planning-rules'))).toBe(false);
    sweepTempFiles(root);
    expect(tempFolders(agents)).toEqual([]);
  });

  it('leaves each new folder absent or whole, never part-filled (real worker, 3,000 files, three times)', async () => {
    for (let run = 0; run < 3; run += 1) {
      const root = await interrupted(3000, undefined, (agents) => filling(agents) >= 2100);
      const folder = path.join(root, '.agents/planning-rules');
      const count = existsSync(folder) ? readdirSync(folder).length : 0;
      expect([0, 3000]).toContain(count);
      expect(existsSync(path.join(root, '.agents/constraints/index.json'))).toBe(count === 3000);
    }
  });
});
