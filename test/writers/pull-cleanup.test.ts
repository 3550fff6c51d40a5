/**
 * `findings pull` cleans up its private temporary repositories: on SIGINT/SIGTERM while fetching,
 * and — for what a SIGKILL left — by sweeping `findings-pull-*` folders older than an hour at the
 * next pull. Each test gives the real bin its own TMPDIR. Needs a fresh build.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepStalePullDirs } from '../../src/fs/temp-dirs.js';
import { BIN, GIT_ENV, makeRepo, spawnFindings, tempDir } from '../helpers/repo.js';
import { entry, jsonl, REGISTRY } from '../registry/entries.js';

const pullDirs = (tmp: string): string[] => readdirSync(tmp).filter((n) => n.startsWith('findings-pull-'));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function ageFolder(abs: string, ms: number): void {
  const t = (Date.now() - ms) / 1000;
  utimesSync(abs, t, t);
}

describe('pull temp folders', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('an interrupted pull (%s while fetching) leaves no findings-pull-* folder', async (signal) => {
    const repo = makeRepo();
    const tmp = tempDir('findings-tmp-');
    // The "ssh" transport runs this command instead of ssh: it leaves a marker and waits long enough
    // for a loaded machine (the signal to the group ends the wait; the rest
    // of git's command line is a shell comment), so the pull is caught in the middle of its fetch.
    const marker = path.join(tempDir('findings-marker-'), 'fetching');
    const child = spawn(process.execPath, [BIN, 'pull', 'ssh://example.invalid/source.git'], {
      cwd: repo.root,
      env: { ...process.env, ...GIT_ENV, TMPDIR: tmp, GIT_SSH_COMMAND: `touch '${marker}'; sleep 60 #` },
      stdio: 'ignore',
      detached: true,
    });
    const exited = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, sig) => resolve({ code, sig })),
    );
    while (!existsSync(marker)) await sleep(20);
    expect(pullDirs(tmp)).toHaveLength(1);
    // To the process group, as a terminal's Ctrl-C or a CI runner's cancel does: git stops too
    // (an orphaned `git init` could otherwise re-create the folder after it is removed).
    process.kill(-child.pid!, signal);
    // Node may see the signal first (it cleans up and dies of it) or git's death first (the fetch
    // fails, it cleans up and exits 2): either way the pull stopped, and nothing is left behind.
    const { code, sig } = await exited;
    expect(sig === signal || (code !== null && code !== 0), `exit ${code}, signal ${sig}`).toBe(true);
    expect(pullDirs(tmp)).toEqual([]);
  });

  it('the next pull sweeps findings-pull-* folders older than an hour, and keeps newer ones and other folders', async () => {
    const source = makeRepo({ [REGISTRY]: jsonl(entry({ id: 'f-src-1' })) });
    source.commitAll('source');
    const repo = makeRepo();
    const tmp = tempDir('findings-tmp-');
    for (const n of ['findings-pull-old', 'findings-pull-new', 'other-old']) mkdirSync(path.join(tmp, n, 'objects'), { recursive: true });
    ageFolder(path.join(tmp, 'findings-pull-old'), 2 * 60 * 60 * 1000);
    ageFolder(path.join(tmp, 'other-old'), 2 * 60 * 60 * 1000);
    const r = await spawnFindings(['pull', source.root], { cwd: repo.root, env: { TMPDIR: tmp } });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(tmp).sort()).toEqual(['findings-pull-new', 'other-old']);
  });

  it('sweepStalePullDirs: only findings-pull-* folders past the bound', () => {
    const tmp = tempDir('findings-tmp-');
    for (const n of ['findings-pull-a', 'findings-pull-b']) mkdirSync(path.join(tmp, n));
    ageFolder(path.join(tmp, 'findings-pull-a'), 61 * 60 * 1000);
    expect(sweepStalePullDirs(tmp)).toEqual(['findings-pull-a']);
    expect(pullDirs(tmp)).toEqual(['findings-pull-b']);
  });
});
