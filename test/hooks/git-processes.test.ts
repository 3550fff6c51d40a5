/**
 * One snapshot per hook run (hooks/snapshot.ts): the git processes `findings hook pre-commit`
 * starts, counted with GIT_TRACE (each git process logs its built-in command once).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir, type TestRepo } from '../helpers/repo.js';
import { constraint, hookedRepo, hookEnv, stageIndex } from './setup.js';

function gitCommandsOfHook(
  cwd: string,
  options: { args?: string[]; env?: NodeJS.ProcessEnv } = {},
): { code: number; commands: string[]; output: string } {
  const trace = path.join(tempDir('findings-gittrace-'), 'trace.txt');
  const r = spawnSync(process.execPath, [BIN, 'hook', 'pre-commit', ...(options.args ?? [])], {
    cwd,
    env: hookEnv({ GIT_TRACE: trace, ...options.env }),
    encoding: 'utf8',
  });
  const commands = readFileSync(trace, 'utf8')
    .split('\n')
    .flatMap((l) => {
      const m = /trace: built-in: git ([\w-]+)/.exec(l);
      return m ? [m[1]!] : [];
    });
  return { code: r.status ?? -1, commands, output: `${r.stdout}${r.stderr}` };
}

/** A hooked repository whose HEAD has an active `\beval\(` constraint, with `src/a.js` staged as `content`. */
async function indexedRepoStaging(content: string): Promise<TestRepo> {
  const repo = await hookedRepo();
  stageIndex(repo, constraint('c-active'));
  repo.git('commit', '-q', '--no-verify', '-m', 'index');
  repo.write('src/a.js', content);
  repo.git('add', 'src/a.js');
  return repo;
}

describe('git processes of one pre-commit run', () => {
  it('a plain commit: one diff; the repository files answer the probe and the index reads (hooks/local-meta.ts)', async () => {
    const repo = await indexedRepoStaging('ok();\n');
    const { code, commands } = gitCommandsOfHook(repo.root);
    expect(code).toBe(0);
    // No rev-parse, no cat-file: an ordinary repository (hooks/commit-start.ts), blobs on disk.
    expect(commands).toEqual(['diff']);
  });

  it('a commit that demotes the index, whose HEAD version only a pack holds: cat-file answers, and the stricter judgment blocks', async () => {
    const repo = await indexedRepoStaging('eval(x);\n');
    repo.git('gc', '-q', '--prune=now'); // HEAD's index.json is packed now
    stageIndex(repo, constraint('c-active', { status: 'shadow' }));
    const { code, commands, output } = gitCommandsOfHook(repo.root);
    expect(code).toBe(1);
    expect(output).toContain('can land only in a commit that does not need it');
    expect(commands).toContain('cat-file'); // (the staged index is validated too, which reads more)
  });

  it('a staged finding source: the index is listed once for validation and the drift check', async () => {
    const repo = await hookedRepo();
    repo.write('.agents/findings/f-one.md', '---\nid: f-one\n---\nbody\n');
    repo.git('add', '.agents/findings/f-one.md');
    const { commands } = gitCommandsOfHook(repo.root);
    expect(commands.filter((c) => c === 'ls-files')).toHaveLength(1);
    expect(commands.filter((c) => c === 'rev-parse')).toHaveLength(0);
    expect(commands.filter((c) => c === 'diff')).toHaveLength(1);
  });

  it('run from a subfolder, the early diff (paths relative to where it ran) is not used: the diff runs again at the top level', async () => {
    const repo = await indexedRepoStaging('eval(x);\n');
    repo.git('config', 'diff.relative', 'true'); // would hide src/a.js from a diff run in docs/
    repo.write('docs/readme.md', 'x\n');
    const { code, commands } = gitCommandsOfHook(path.join(repo.root, 'docs'));
    expect(code).toBe(1); // src/a.js was judged
    expect(commands.filter((c) => c === 'diff')).toHaveLength(2);
  });

  it('a staged blob only git has (packed, then edited in the working tree) is read from git, and judged', async () => {
    const repo = await indexedRepoStaging('eval(x);\n');
    repo.git('gc', '-q', '--prune=now'); // packs the staged blob too
    repo.write('src/a.js', 'fine();\n'); // the working tree no longer holds it
    const { code, commands, output } = gitCommandsOfHook(repo.root);
    expect(code).toBe(1);
    expect(output).toContain('matched "eval("');
    expect(commands.filter((c) => c !== 'cat-file').sort()).toEqual(['diff']);
  });

  it('started by the launcher or by the hook, each git question is asked once: with an option, and not at all when skipped', async () => {
    const repo = await indexedRepoStaging('ok();\n');
    // An option: the launcher starts nothing; the hook asks, once each.
    expect([...gitCommandsOfHook(repo.root, { args: ['--quiet'] }).commands].sort()).toEqual(['cat-file', 'diff', 'rev-parse']);
    // Skipped: only the probe that finds the root, as before the launcher started anything.
    for (const env of [{ HUSKY: '0' }, { FINDINGS_SKIP: 'all' }]) {
      const { code, commands } = gitCommandsOfHook(repo.root, { env });
      expect(code).toBe(0);
      expect(commands).toEqual(['rev-parse']);
    }
  });
});
