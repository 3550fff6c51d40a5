/**
 * No writer writes outside the repository through a committed symlink (src/fs/repo-write.ts):
 * the target folder and the target file must resolve inside the root, checked before anything is
 * written (lock files included). One test per writer.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runFindings, tempDir, type TestRepo } from '../helpers/repo.js';
import { entry, line, REGISTRY } from '../registry/entries.js';
import { generateHistory } from '../lifecycle/history.js';

const NOW = '2026-03-04T05:06:07Z';

function reviewRepo(): TestRepo {
  const r = makeRepo();
  r.copy('review/repo');
  r.commitAll('init');
  return r;
}

/** A file outside the repository with known bytes. */
function outsideFile(): string {
  const f = path.join(tempDir('findings-outside-'), 'victim.txt');
  writeFileSync(f, 'outside\n');
  return f;
}

function outsideDir(): string {
  return tempDir('findings-outside-');
}

const run = (r: TestRepo, args: string[], stdin?: string) =>
  runFindings(args, { cwd: r.root, env: { FINDINGS_NOW: NOW }, ...(stdin === undefined ? {} : { stdin }) });

describe('writers refuse targets that leave the repository through a symlink', () => {
  it('review fail: a symlinked note .agents/reviews/T-1.md -> outside is not overwritten', async () => {
    const r = reviewRepo();
    const victim = outsideFile();
    mkdirSync(path.join(r.root, '.agents/reviews'), { recursive: true });
    symlinkSync(victim, path.join(r.root, '.agents/reviews/T-1.md'));
    const res = await run(r, ['review', 'fail', 'T-1', '--issue', 'docs are missing']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('.agents/reviews/T-1.md leaves the repository through a symlink; nothing written');
    expect(readFileSync(victim, 'utf8')).toBe('outside\n');
    expect(r.exists('.agents/reviews/T-1.jsonl')).toBe(false);
  });

  it('review fail: a symlinked ledger .agents/reviews/T-1.jsonl -> outside gets no event', async () => {
    const r = reviewRepo();
    const victim = outsideFile();
    mkdirSync(path.join(r.root, '.agents/reviews'), { recursive: true });
    symlinkSync(victim, path.join(r.root, '.agents/reviews/T-1.jsonl'));
    const res = await run(r, ['review', 'fail', 'T-1', '--issue', 'docs are missing']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('.agents/reviews/T-1.jsonl leaves the repository through a symlink');
    expect(readFileSync(victim, 'utf8')).toBe('outside\n');
  });

  it('review fail: a symlinked .agents/reviews folder gets no new file (not even a lock)', async () => {
    const r = reviewRepo();
    const away = outsideDir();
    symlinkSync(away, path.join(r.root, '.agents/reviews'));
    const res = await run(r, ['review', 'fail', 'T-1', '--issue', 'docs are missing']);
    expect(res.code, res.stderr).toBe(2);
    expect(readdirSync(away)).toEqual([]);
  });

  it('review task: a symlinked .agents/tasks folder gets no new task file', async () => {
    const r = reviewRepo();
    const away = outsideDir();
    // Replace the real folder by a symlink to an empty outside folder.
    r.git('rm', '-rq', '.agents/tasks');
    symlinkSync(away, path.join(r.root, '.agents/tasks'));
    const res = await run(r, ['review', 'task', 'T-2', '--criterion', 'it works']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('.agents/tasks/T-2.json leaves the repository through a symlink');
    expect(readdirSync(away)).toEqual([]);
  });

  it('constraint measure: a symlinked measurements folder gets nothing written through it', async () => {
    const r = makeRepo();
    generateHistory(r, { commits: 5 });
    r.copy('lifecycle/measure/index.json', '.agents/constraints/index.json');
    const away = outsideDir();
    symlinkSync(away, path.join(r.root, '.agents/constraints/measurements'));
    const res = await run(r, ['constraint', 'measure']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('.agents/constraints/measurements/f-console.json leaves the repository through a symlink');
    expect(readdirSync(away)).toEqual([]);
  });

  it('recur: a symlinked candidates.jsonl -> outside is not rewritten', async () => {
    const r = reviewRepo();
    const victim = outsideFile();
    mkdirSync(path.join(r.root, '.agents/findings'), { recursive: true });
    symlinkSync(victim, path.join(r.root, '.agents/findings/candidates.jsonl'));
    const res = await run(r, ['recur']);
    expect(res.code, res.stderr).toBe(2);
    expect(readFileSync(victim, 'utf8')).toBe('outside\n');
  });

  it('add (registry): a symlinked .agents/findings folder gets no registry or lock', async () => {
    const r = makeRepo();
    const away = outsideDir();
    mkdirSync(path.join(r.root, '.agents'), { recursive: true });
    symlinkSync(away, path.join(r.root, '.agents/findings'));
    const res = await run(r, ['add'], JSON.stringify(entry()));
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(`${REGISTRY} leaves the repository through a symlink`);
    expect(readdirSync(away)).toEqual([]);
  });

  it('compile: a symlinked planning-rules folder gets nothing written through it', async () => {
    const r = makeRepo({ [REGISTRY]: line(entry()) });
    const away = outsideDir();
    symlinkSync(away, path.join(r.root, '.agents/planning-rules'));
    const res = await run(r, ['compile']);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout + res.stderr).toContain('.agents/planning-rules leaves the repository through a symlink');
    expect(readdirSync(away)).toEqual([]);
  });

  it('pull: a symlinked sources.json -> outside is not written, and nothing else is either', async () => {
    const src = makeRepo({ [REGISTRY]: line(entry({ id: 'f-src-1' })) });
    src.commitAll('source');
    const r = makeRepo();
    const victim = outsideFile();
    mkdirSync(path.join(r.root, '.agents/findings'), { recursive: true });
    symlinkSync(victim, path.join(r.root, '.agents/findings/sources.json'));
    const res = await run(r, ['pull', src.root]);
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stderr).toContain('.agents/findings/sources.json leaves the repository through a symlink');
    expect(readFileSync(victim, 'utf8')).toBe('outside\n');
    expect(existsSync(path.join(r.root, REGISTRY))).toBe(false);
  });
});
