/**
 * A cold compile publishes each rule folder that does not exist yet whole, with one rename of a
 * fresh temp folder (docs/compiler.md "Crash safety"), instead of a temp file and a rename per
 * file; a folder that exists is still written file by file. The rename count is observed through
 * the writer's injectable system calls (src/fs/atomic.ts WriteOps), as test/kernel/atomic.test.ts does.
 * The ~29,000 lines listing those files go to stdout in one write.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCompile } from '../../compiler/run.js';
import { runCli } from '../../src/cli/main.js';
import { nodeWriteOps, type WriteOps } from '../../src/fs/atomic.js';
import { TEMP_FOLDER } from '../../src/fs/new-folder.js';
import { makeRepo, runFindings, tempDir, type TestRepo } from '../helpers/repo.js';
import { REG } from './entries.js';

const REGISTRY = '.agents/findings/registry.jsonl';
const ids = (n: number, from = 1): string[] => Array.from({ length: n }, (_, i) => `f-${i + from}`);
const registry = (list: string[]): string => list.map((id) => REG(id)).join('');

/** Counts renames (repository-relative targets) and passes them on. */
function counting(root: string): { ops: WriteOps; renamed: string[] } {
  const renamed: string[] = [];
  const ops: WriteOps = {
    ...nodeWriteOps,
    rename: (from, to) => {
      renamed.push(path.relative(root, to));
      nodeWriteOps.rename(from, to);
    },
  };
  return { ops, renamed };
}

const agentsEntries = (repo: TestRepo): string[] => readdirSync(path.join(repo.root, '.agents')).sort();

describe('a cold compile publishes each new rule folder with one rename', () => {
  it('renames each new folder once; promoted artifacts and the index still get a rename each', async () => {
    const repo = makeRepo({ [REGISTRY]: registry(ids(3)) });
    const { ops, renamed } = counting(repo.root);
    const run = await runCompile(repo.root, { check: false, writeOps: ops });
    expect(run.changes.filter((c) => c.action === 'created')).toHaveLength(10);
    expect(renamed).toEqual([
      '.agents/findings/f-1.md',
      '.agents/findings/f-2.md',
      '.agents/findings/f-3.md',
      '.agents/planning-rules',
      '.agents/pre-mortem-checks',
      '.agents/constraints/index.json',
    ]);
    expect(readdirSync(path.join(repo.root, '.agents/planning-rules')).sort()).toEqual(['f-1.md', 'f-2.md', 'f-3.md']);
    expect(readdirSync(path.join(repo.root, '.agents/pre-mortem-checks')).sort()).toEqual(['f-1.md', 'f-2.md', 'f-3.md']);
    expect(agentsEntries(repo)).toEqual(['constraints', 'findings', 'planning-rules', 'pre-mortem-checks']);
    expect((await runFindings(['compile', '--check', '--root', repo.root], { cwd: repo.root })).code).toBe(0);
  });

  it('a folder that exists is written file by file, and files of its own stay', async () => {
    const repo = makeRepo({ [REGISTRY]: registry(ids(2)) });
    await runCompile(repo.root, { check: false });
    repo.write('.agents/planning-rules/README.txt', 'mine\n');
    repo.write(REGISTRY, registry(ids(3)));
    const { ops, renamed } = counting(repo.root);
    await runCompile(repo.root, { check: false, writeOps: ops });
    expect(renamed).toEqual(['.agents/findings/f-3.md', '.agents/planning-rules/f-3.md', '.agents/pre-mortem-checks/f-3.md']);
    expect(readdirSync(path.join(repo.root, '.agents/planning-rules')).sort()).toEqual(['README.txt', 'f-1.md', 'f-2.md', 'f-3.md']);
  });

  it('a compile that fails before the folder rename leaves no partial folder; the next compile publishes it whole', async () => {
    const repo = makeRepo({ [REGISTRY]: registry(ids(3)) });
    const ops: WriteOps = {
      ...nodeWriteOps,
      rename: (from, to) => {
        if (to.endsWith('pre-mortem-checks')) throw new Error('killed before the folder rename');
        nodeWriteOps.rename(from, to);
      },
    };
    await expect(runCompile(repo.root, { check: false, writeOps: ops })).rejects.toThrow('killed before the folder rename');
    expect(existsSync(path.join(repo.root, '.agents/pre-mortem-checks'))).toBe(false);
    expect(agentsEntries(repo)).toEqual(['constraints', 'findings', 'planning-rules']);
    const again = await runFindings(['compile', '--root', repo.root], { cwd: repo.root });
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(path.join(repo.root, '.agents/pre-mortem-checks')).sort()).toEqual(['f-1.md', 'f-2.md', 'f-3.md']);
    expect((await runFindings(['compile', '--check', '--root', repo.root], { cwd: repo.root })).code).toBe(0);
  });

  it('a temp folder a killed compile left in .agents is removed by the next compile, never by --check', async () => {
    const repo = makeRepo({ [REGISTRY]: registry(ids(2)) });
    const left = '.agents/.planning-rules.findings-999-7.tmpdir';
    repo.write(`${left}/f-1.md`, 'half');
    expect(left.split('/')[1]).toMatch(TEMP_FOLDER);
    const check = await runFindings(['compile', '--check', '--root', repo.root], { cwd: repo.root });
    expect(check.code).toBe(1);
    expect(repo.exists(`${left}/f-1.md`)).toBe(true);
    const r = await runFindings(['compile', '--root', repo.root], { cwd: repo.root });
    expect(r.code, r.stderr).toBe(0);
    expect(repo.exists(left)).toBe(false);
    expect(agentsEntries(repo)).toEqual(['constraints', 'findings', 'planning-rules', 'pre-mortem-checks']);
    expect(readdirSync(path.join(repo.root, '.agents/planning-rules')).sort()).toEqual(['f-1.md', 'f-2.md']);
  });

  it('a dangling symlink where a rule folder would go is refused, and nothing is created through it', async () => {
    const repo = makeRepo({ [REGISTRY]: registry(ids(2)) });
    const away = path.join(tempDir('findings-outside-'), 'not-yet');
    mkdirSync(path.join(repo.root, '.agents'), { recursive: true });
    symlinkSync(away, path.join(repo.root, '.agents/planning-rules'));
    const r = await runFindings(['compile', '--root', repo.root], { cwd: repo.root });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('.agents/planning-rules is a symlink that does not resolve');
    expect(existsSync(away)).toBe(false);
    expect(readdirSync(path.dirname(away))).toEqual([]);
    expect(readdirSync(path.join(repo.root, '.agents/pre-mortem-checks')).sort()).toEqual(['f-1.md', 'f-2.md']);
    expect(agentsEntries(repo).filter((n) => TEMP_FOLDER.test(n))).toEqual([]);
  });

  it('a symlinked .agents gets no temp folder outside the repository', async () => {
    const outside = tempDir('findings-outside-');
    mkdirSync(path.join(outside, 'findings'));
    writeFileSync(path.join(outside, 'findings/registry.jsonl'), registry(ids(2)));
    const repo = makeRepo();
    symlinkSync(outside, path.join(repo.root, '.agents'));
    const r = await runFindings(['compile', '--root', repo.root], { cwd: repo.root });
    expect(r.code).toBe(1);
    expect(readdirSync(outside)).toEqual(['findings']);
  });
});

describe('the list of changes', () => {
  it('goes to stdout in one write, one line per file as before', async () => {
    const repo = makeRepo({ [REGISTRY]: registry(ids(2)) });
    const writes: string[] = [];
    const code = await runCli(['compile', '--root', repo.root], {
      cwd: repo.root,
      env: { ...process.env, NO_COLOR: '1' },
      stdin: Readable.from([]),
      stdout: { write: (s: string) => writes.push(s), isTTY: false },
      stderr: { write: () => true, isTTY: false },
    });
    expect(code).toBe(0);
    const lines = [
      'created  .agents/constraints/index.json',
      'created  .agents/findings/f-1.md',
      'created  .agents/findings/f-2.md',
      'created  .agents/planning-rules/f-1.md',
      'created  .agents/planning-rules/f-2.md',
      'created  .agents/pre-mortem-checks/f-1.md',
      'created  .agents/pre-mortem-checks/f-2.md',
    ];
    expect(writes).toEqual([`${lines.join('\n')}\n`, 'findings compile: 7 created, 0 updated, 0 removed (0 errors, 0 warnings)\n']);
  });
});
