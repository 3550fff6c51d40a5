#!/usr/bin/env node
// Makes dist/hook.cache, V8's compiled code of the commit hook's bundle (hooks/bundle-loader.ts,
// docs/hooks.md "Speed"), run by scripts/bundle-hook.mjs after it bundles. The code is taken
// after one real hook run over a small repository in a temp folder, so it holds every function
// a commit runs, not only the bundle's top level; and under the V8 flags the launcher sets
// (bin/findings.js), or V8 would refuse it. Failing anywhere leaves no cache: the hook then
// compiles its bundle as it would have. `node scripts/hook-code-cache.cjs [out]` writes `out`
// (default dist/hook.cache) whole or not at all.
'use strict';
const { execFileSync } = require('node:child_process');
const { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

// A build may run inside a git hook (npm test from a pre-commit hook, npm ci from a pre-push
// one), whose variables name the user's repository, index and work tree: the warm-up's git and
// hook must see only the temp repository. Nor the user's own git config (signing, hooks).
// Nor a skip (HUSKY=0 in CI, FINDINGS_SKIP): the warm-up must run the whole hook.
for (const name of Object.keys(process.env))
  if (name.startsWith('GIT_') || name.startsWith('FINDINGS_') || name === 'HUSKY') delete process.env[name];
process.env.GIT_CONFIG_NOSYSTEM = '1';
process.env.GIT_CONFIG_GLOBAL = path.join(tmpdir(), 'findings-code-cache-no-config');

const dist = path.join(__dirname, '..', 'dist');
const out = process.argv[2] ? path.resolve(process.argv[2]) : path.join(dist, 'hook.cache');
const { bundleFiles, cacheFileFor, loadHookBundle, startCommitHook } = require(path.join(dist, 'commit-start.cjs'));
// The launcher's flag (bin/findings.js): V8 takes a cache only under the flags it was made with.
require('node:v8').setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

const entry = (id, status, pattern, globs) => ({
  id,
  finding_id: id,
  title: `warm-up ${id}`,
  status,
  enforcement_mode: status === 'active' ? 'block' : 'warn',
  source_artifact: `.agents/findings/${id}.md`,
  compiled_at: '2026-01-01',
  applies_to: { scope: 'files', path_globs: globs },
  detector: { kind: 'regex', pattern },
  evidence: { positive_refs: ['p'], negative_control_refs: ['n'] },
});

function warmUpRepository() {
  const root = mkdtempSync(path.join(tmpdir(), 'findings-code-cache-'));
  const env = { ...process.env, HOME: root, GIT_AUTHOR_NAME: 'cache', GIT_AUTHOR_EMAIL: 'cache@example.com' };
  const git = (...args) =>
    execFileSync('git', args, {
      cwd: root,
      env: { ...env, GIT_COMMITTER_NAME: 'cache', GIT_COMMITTER_EMAIL: 'cache@example.com' },
      stdio: 'ignore',
    });
  const write = (rel, text) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  git('init', '-q');
  const constraints = [
    entry('f-eval', 'active', '\\beval\\(', ['**/*.js']),
    entry('f-timeout', 'active', 'setTimeout\\s*\\(\\s*"', ['src/**']),
    entry('f-console', 'shadow', 'console\\.(?:log|debug)\\(', ['**/*.{js,ts}']),
  ];
  write('.agents/constraints/index.json', `${JSON.stringify({ schema_version: 1, constraints }, null, 2)}\n`);
  write('src/ok.js', 'export const ok = 1;\n');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'index');
  write('src/ok.js', 'export const ok = 2;\n');
  write('src/warn.ts', 'console.log("x");\n');
  write('src/bad.js', 'export const y = eval("1");\nsetTimeout("go()", 1);\n');
  git('add', '-A');
  return root;
}

async function main() {
  const root = warmUpRepository();
  try {
    process.chdir(root);
    const argv = ['hook', 'pre-commit'];
    const loaded = loadHookBundle(dist);
    await loaded.exports.main(argv, startCommitHook(argv, process.env, root));
    const cache = cacheFileFor(readFileSync(bundleFiles(dist).source), loaded.script.createCachedData());
    // Whole or not at all: a hook may load the cache at any moment.
    const temp = `${out}.${process.pid}.tmp`;
    writeFileSync(temp, cache);
    renameSync(temp, out);
  } finally {
    process.chdir(__dirname);
    rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  () => {
    process.exitCode = 0;
  },
  (error) => {
    process.stderr.write(`hook-code-cache: no cache made (${error instanceof Error ? error.message : String(error)})\n`);
    process.exitCode = 0;
  },
);
