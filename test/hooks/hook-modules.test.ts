/**
 * The pre-commit path stays lean (docs/hooks.md "Speed"): a plain commit that runs the gate over
 * a staged file must not load the Markdown stack, the YAML parsers, simple-git, safe-regex2 or
 * the ajv compiler. (The standalone validators' one-function runtime helper, ajv/dist/runtime/,
 * is allowed: it is what replaces compiling schemas at start-up.)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, PACKAGE_ROOT, tempDir } from '../helpers/repo.js';
import { constraint, hookedRepo, hookEnv, stageIndex } from './setup.js';

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

describe('findings hook pre-commit loads only what it needs', () => {
  it('a plain commit judged by an active constraint loads no heavy module', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, constraint('c-active'), constraint('c-quantified', { pattern: 'setTimeout\\s*\\(\\s*"' }));
    repo.write('src/a.js', 'ok();\n');
    repo.git('add', 'src/a.js');
    const { code, modules } = modulesLoaded(repo.root, ['hook', 'pre-commit']);
    expect(code).toBe(0);
    // The trace works: the gate's own modules are in it.
    expect(modules.some((m) => m.includes('/hooks/gate.js'))).toBe(true);
    expect(modules.some((m) => m.includes('/node_modules/re2js/'))).toBe(true);
    expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
  });

  it('the trace sees a heavy module when one is loaded (findings doctor uses simple-git)', async () => {
    const repo = await hookedRepo();
    const { modules } = modulesLoaded(repo.root, ['doctor']);
    expect(modules.some((m) => m.includes('/node_modules/simple-git/'))).toBe(true);
  });
});
