/**
 * The launcher's fast path for the commit hooks (src/cli/hook-entry.ts, docs/hooks.md "Speed"):
 * it takes only what the hook command would accept and otherwise declines, and what it prints
 * and returns is exactly what the full CLI (commander, src/cli/main.ts) gives for the same run.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFastHookArgs } from '../../src/cli/hook-entry.js';
import { runFindings, spawnFindings, tempDir } from '../helpers/repo.js';
import { constraint, hookedRepo, hookEnv, stageIndex } from './setup.js';

describe('parseFastHookArgs', () => {
  it('takes the hook options with values the command accepts', () => {
    expect(parseFastHookArgs(['hook', 'pre-commit'])).toEqual({ hook: 'pre-commit', options: { format: 'stylish' } });
    expect(
      parseFastHookArgs(['hook', 'pre-merge-commit', '--quiet', '--max-warnings', '0', '--format=sarif', '--root', 'sub', '--json']),
    ).toEqual({
      hook: 'pre-merge-commit',
      options: { format: 'sarif', quiet: true, maxWarnings: 0, root: 'sub', json: true },
    });
    expect(parseFastHookArgs(['hook', 'pre-commit', '--max-warnings=12'])?.options.maxWarnings).toBe(12);
  });

  it('declines everything else, so the full CLI answers it', () => {
    for (const argv of [
      ['hook', 'pre-push'],
      ['check', '--staged'],
      ['hook', 'pre-commit', '--help'],
      ['hook', 'pre-commit', '-h'],
      ['hook', 'pre-commit', 'extra'],
      ['hook', 'pre-commit', '--bogus'],
      ['hook', 'pre-commit', '--format', 'markdown'],
      ['hook', 'pre-commit', '--format'],
      ['hook', 'pre-commit', '--max-warnings', '-1'],
      ['hook', 'pre-commit', '--max-warnings', 'x'],
      ['hook', 'pre-commit', '--root', '--quiet'],
      ['hook', 'pre-commit', '--root='],
      ['hook', 'pre-commit', '--quiet=yes'],
      ['hook', 'pre-commit', '--quiet', '--quiet'],
      ['hook', 'pre-commit', '--'],
    ]) {
      expect(parseFastHookArgs(argv), argv.join(' ')).toBeNull();
    }
  });
});

describe('the fast path answers as the full CLI does', () => {
  it('blocked, json, sarif, quiet with a warning limit, --root, outside a repository, a declined option', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, constraint('c-eval'), constraint('c-shadow', { status: 'shadow', pattern: '\\bwarnme\\(' }));
    repo.git('commit', '-q', '--no-verify', '-m', 'index');
    repo.write('src/a.js', 'eval(x);\nwarnme(1);\n');
    repo.git('add', 'src/a.js');
    mkdirSync(path.join(repo.root, 'sub'), { recursive: true });
    const outside = tempDir('findings-notrepo-');
    const runs: [string[], string][] = [
      [['hook', 'pre-commit'], repo.root],
      [['hook', 'pre-commit', '--json'], repo.root],
      [['hook', 'pre-commit', '--format', 'sarif'], repo.root],
      [['hook', 'pre-commit', '--quiet', '--max-warnings', '0'], repo.root],
      [['hook', 'pre-merge-commit', '--format=github'], repo.root],
      [['hook', 'pre-commit', '--root', 'sub'], repo.root],
      [['hook', 'pre-commit', '--root', 'missing'], repo.root],
      [['hook', 'pre-commit'], outside],
      [['hook', 'pre-commit', '--bogus'], repo.root],
    ];
    for (const [args, cwd] of runs) {
      const viaBin = await spawnFindings(args, { cwd, env: hookEnv() });
      const viaCli = await runFindings(args, { cwd, env: hookEnv() });
      expect(viaBin, `${args.join(' ')} in ${cwd === outside ? 'a folder outside git' : 'the repository'}`).toEqual(viaCli);
    }
    // The runs above did reach the gate: the first one blocks.
    expect((await spawnFindings(['hook', 'pre-commit'], { cwd: repo.root, env: hookEnv() })).code).toBe(1);
  });
});
