#!/usr/bin/env node
// Committed plain-JS launcher (docs/stack-pitfalls.md#2): tsc drops exec bits, and Node 20 cannot run .ts.
// CommonJS (bin/package.json): a commit hook runs on every commit, and node starts a CommonJS
// script without its ES module loader; the hook's bundle is CommonJS too, so a plain commit never
// starts that loader (about 10 ms). Everything else imports dist/'s ES modules, as before.
'use strict';
const { statSync } = require('node:fs');
const path = require('node:path');
const { enableCompileCache, linearRegexFallback, runFullCli } = require('./full-cli.js');

/** Whether this Node can have a compile cache: asked before loading `module`, which starts node's ES module loader. */
function nodeMayCacheCode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 1);
}

const argv = process.argv.slice(2);
const DIST = path.join(__dirname, '..', 'dist');
const dist = (name) => path.join(DIST, name);

/**
 * The commit hooks run on every commit, so they take a fast path: one bundled file without
 * commander or the general CLI (src/cli/hook-entry.ts, docs/hooks.md "Speed"). It declines
 * anything but plain options (the full CLI then answers), and is skipped when dist/ has no
 * current bundle (the full CLI then runs the hook, the same way). True when it ran the hook.
 */
async function fastHook() {
  if (argv[0] !== 'hook' || (argv[1] !== 'pre-commit' && argv[1] !== 'pre-merge-commit')) return false;
  if (!bundleIsCurrent()) return false;
  if (nodeMayCacheCode()) enableCompileCache();
  // git starts on the commit's first questions while node loads the hook's code (hooks/commit-start.ts).
  const { loadHookBundle, startCommitHook } = require(dist('commit-start.cjs'));
  const started = startCommitHook(argv, process.env, process.cwd());
  linearRegexFallback();
  // With the code V8 compiled for it at build, when that still fits (hooks/bundle-loader.ts).
  return loadHookBundle(DIST).exports.main(argv, started);
}

/**
 * False when tsc rebuilt dist/ after the bundle was made (a `tsc` run without `npm run build`):
 * the bundle would run older code than dist/. A package without dist/.tsbuildinfo (the npm
 * tarball) was bundled by the build that made it.
 */
function bundleIsCurrent() {
  const mtime = (name) => statSync(dist(name), { throwIfNoEntry: false })?.mtimeMs ?? null;
  const bundled = Math.min(mtime('hook.cjs') ?? -1, mtime('commit-start.cjs') ?? -1);
  const compiled = mtime('.tsbuildinfo');
  return bundled !== -1 && (compiled === null || bundled >= compiled);
}

// A rejection stays unhandled, as a top-level await left it: node prints it and exits 1.
void fastHook().then((ran) => ran || runFullCli('findings', argv));
