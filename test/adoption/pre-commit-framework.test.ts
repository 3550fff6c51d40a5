/**
 * The repository's .pre-commit-hooks.yaml, run the way the pre-commit framework runs it: the
 * entry split into words, then `args`, then the staged filenames when `pass_filenames` is true
 * (the default), from the repository top, with the package's bin on PATH.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, makeRepo, PACKAGE_ROOT, tempDir } from '../helpers/repo.js';
import { constraint, hookEnv, indexJson } from '../hooks/setup.js';

interface HookDef {
  id: string;
  entry: string;
  language: string;
  args?: string[];
  pass_filenames?: boolean;
  stages?: string[];
}

const hooks = parse(readFileSync(path.join(PACKAGE_ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as HookDef[];

describe('.pre-commit-hooks.yaml', () => {
  it("defines node hooks whose entry runs this package's bin", () => {
    expect(hooks.map((h) => h.id)).toContain('findings-check');
    for (const h of hooks) {
      expect(h.language).toBe('node');
      const [command] = h.entry.split(/\s+/);
      expect(
        Object.keys((JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin),
      ).toContain(command);
    }
  });

  it('findings-check, run with the staged filenames: exit 0 for clean files, 1 for an active hit', () => {
    const def = hooks.find((h) => h.id === 'findings-check')!;
    const repo = makeRepo({ '.agents/constraints/index.json': indexJson(constraint('eval')) });
    repo.commitAll('index');
    // The framework's node environment puts the package's bins on PATH.
    const bin = path.join(tempDir('findings-precommit-bin-'), 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'findings'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(path.join(bin, 'findings'), 0o755);
    const run = (files: string[]): { code: number; out: string } => {
      const argv = [...def.entry.split(/\s+/), ...(def.args ?? []), ...(def.pass_filenames === false ? [] : files)];
      const r = spawnSync(argv[0]!, argv.slice(1), {
        cwd: repo.root,
        env: hookEnv({ PATH: `${bin}${path.delimiter}${process.env['PATH']}` }),
        encoding: 'utf8',
      });
      return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
    };
    repo.write('clean.js', 'export const a = 1;\n');
    repo.git('add', 'clean.js');
    const ok = run(['clean.js']);
    expect(ok.code, ok.out).toBe(0);
    repo.write('bad.js', 'export const b = eval("1");\n');
    repo.git('add', 'bad.js');
    const bad = run(['clean.js', 'bad.js']);
    expect(bad.code, bad.out).toBe(1);
    expect(bad.out).toContain('eval');
  });
});
