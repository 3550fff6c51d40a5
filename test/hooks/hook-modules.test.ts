/**
 * The pre-commit path stays lean (docs/hooks.md "Speed"): a plain commit that runs the gate over
 * a staged file must not load the Markdown stack, the YAML parsers, simple-git, safe-regex2 or
 * the ajv compiler, whether as files or inside the fast path's bundle (which leaves out commander
 * and the general CLI as well). (The standalone validators' one-function runtime helper, ajv/dist/runtime/,
 * is allowed: it is what replaces compiling schemas at start-up.)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, PACKAGE_ROOT, tempDir } from '../helpers/repo.js';
import { commit, constraint, hookedRepo, hookEnv, stageIndex } from './setup.js';

const TRACE = path.join(PACKAGE_ROOT, 'test/helpers/module-trace.mjs');
const HEAVY = new RegExp(
  '/node_modules/(?:unified|remark[^/]*|micromark[^/]*|mdast[^/]*|yaml|js-yaml|gray-matter|simple-git|@simple-git|@kwsites|' +
    'safe-regex2|ret)/|/node_modules/ajv/(?!dist/runtime/)',
);

function modulesLoaded(root: string, args: string[]): { code: number; modules: string[] } {
  const out = path.join(tempDir('findings-trace-'), 'modules.txt');
  const r = spawnSync(process.execPath, ['--import', TRACE, BIN, ...args], {
    cwd: root,
    env: hookEnv({ FINDINGS_MODULE_TRACE: out }),
    encoding: 'utf8',
  });
  return {
    code: r.status ?? -1,
    modules: readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l !== ''),
  };
}

/** A package esbuild put into the bundle: scripts/bundle-hook.mjs lists the modules with code there in dist/hook.inputs.txt. */
const HEAVY_PACKAGES = [
  'unified',
  'remark[^/]*',
  'micromark[^/]*',
  'mdast[^/]*',
  'yaml',
  'js-yaml',
  'gray-matter',
  'simple-git',
  '@simple-git',
  '@kwsites',
  'safe-regex2',
  'ret',
  'ajv',
  'commander',
];
const BUNDLED_HEAVY = new RegExp(`^node_modules/(?:${HEAVY_PACKAGES.join('|')})/`, 'm');

/** A repository with two constraints and `src/a.js` staged; `indexCommitted`: the index is in HEAD, not in this commit. */
async function plainCommitRepo(indexCommitted = false): Promise<string> {
  const repo = await hookedRepo();
  stageIndex(repo, constraint('c-active'), constraint('c-quantified', { pattern: 'setTimeout\\s*\\(\\s*"' }));
  if (indexCommitted) expect(commit(repo, []).code).toBe(0);
  repo.write('src/a.js', 'ok();\n');
  repo.git('add', 'src/a.js');
  return repo.root;
}

describe('findings hook pre-commit loads only what it needs', () => {
  it('a plain commit takes the one-file fast path: no CLI, no commander, no heavy module', async () => {
    const { code, modules } = modulesLoaded(await plainCommitRepo(), ['hook', 'pre-commit']);
    expect(code).toBe(0);
    // The bundle (src/cli/hook-entry.ts → dist/hook.cjs, loaded by dist/commit-start.cjs) ran the hook: the general CLI never loaded.
    expect(modules.some((m) => m.endsWith('/dist/commit-start.cjs'))).toBe(true);
    // …which compiled dist/hook.cjs itself, with its code cache (hooks/bundle-loader.ts), not through require.
    expect(modules.filter((m) => m.endsWith('/dist/hook.cjs'))).toEqual([]);
    expect(modules.filter((m) => m.includes('/dist/src/cli/') || m.includes('/node_modules/commander/'))).toEqual([]);
    expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
    const inputs = readFileSync(path.join(PACKAGE_ROOT, 'dist/hook.inputs.txt'), 'utf8');
    expect(inputs).toContain('\nnode_modules/picomatch/'); // the list the next line reads is there
    expect(BUNDLED_HEAVY.exec(inputs)?.[0] ?? null).toBeNull();
    // Nor the review import (docs/import.md): its readers, classifier and the Markdown stack behind them.
    expect(modules.filter((m) => m.includes('/dist/src/import/'))).toEqual([]);
    expect(/^dist\/src\/import\//m.exec(inputs)?.[0] ?? null).toBeNull();
  });

  it('a plain commit loads no Node builtin it does not need: nor the ES module loader, nor a stream for standard input', async () => {
    // The index is in HEAD: this commit stages a source file only (a staged index is validated, which loads more).
    const root = await plainCommitRepo(true);
    const out = path.join(tempDir('findings-trace-'), 'builtins.txt');
    // Standard input is /dev/null, as git gives a hook.
    const r = spawnSync(
      process.execPath,
      ['--require', path.join(PACKAGE_ROOT, 'test/helpers/builtin-trace.cjs'), BIN, 'hook', 'pre-commit'],
      { cwd: root, env: hookEnv({ FINDINGS_BUILTIN_TRACE: out }), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(r.status).toBe(0);
    const builtins = readFileSync(out, 'utf8').split('\n');
    expect(builtins).toContain('child_process'); // the trace lists builtins
    // Only a worker or a loose object needs these (src/lazy-builtins.ts).
    expect(builtins.filter((m) => m === 'worker_threads' || m === 'zlib')).toEqual([]);
    // The launcher and both bundles are CommonJS (bin/package.json): node never starts its ES module loader.
    expect(builtins).toContain('internal/modules/cjs/loader');
    expect(builtins.filter((m) => m === 'internal/modules/esm/loader' || m === 'module')).toEqual([]);
    // process.stdin is never built: node makes /dev/null a file stream, from file-stream and readline code.
    expect(builtins.filter((m) => m === 'internal/fs/streams' || m.startsWith('internal/readline/'))).toEqual([]);
  });

  it('re2js loads only when a pattern must run: not for plain patterns whose literals no staged file holds', async () => {
    const root = await plainCommitRepo(); // plain patterns; src/a.js holds neither `eval(` nor `setTimeout`
    const quiet = modulesLoaded(root, ['hook', 'pre-commit']);
    expect(quiet.code).toBe(0);
    expect(quiet.modules.some((m) => m.endsWith('/dist/commit-start.cjs'))).toBe(true);
    expect(quiet.modules.filter((m) => m.includes('/node_modules/re2js/'))).toEqual([]);
    writeFileSync(path.join(root, 'src/a.js'), 'eval(x);\n');
    spawnSync('git', ['add', 'src/a.js'], { cwd: root });
    const blocked = modulesLoaded(root, ['hook', 'pre-commit']);
    expect(blocked.code).toBe(1);
    expect(blocked.modules.some((m) => m.includes('/node_modules/re2js/'))).toBe(true);
  });

  it('the full CLI (an option the fast path declines) loads no heavy module either', async () => {
    const { code, modules } = modulesLoaded(await plainCommitRepo(), ['hook', 'pre-commit', '--max-warnings', '-1']);
    expect(code).toBe(0);
    // The trace works: the gate's own modules are in it.
    expect(modules.some((m) => m.includes('/dist/src/cli/main.js'))).toBe(true);
    expect(modules.some((m) => m.includes('/hooks/gate.js'))).toBe(true);
    expect(modules.some((m) => m.includes('/node_modules/picomatch/'))).toBe(true);
    expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
  });

  it('the trace sees a heavy module when one is loaded (findings doctor uses simple-git)', async () => {
    const repo = await hookedRepo();
    const { modules } = modulesLoaded(repo.root, ['doctor']);
    expect(modules.some((m) => m.includes('/node_modules/simple-git/'))).toBe(true);
  });
});
