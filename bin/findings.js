#!/usr/bin/env node
// Committed plain-JS launcher (docs/stack-pitfalls.md#2): tsc drops exec bits, and Node 20 cannot run .ts.
import { statSync } from 'node:fs';
import module from 'node:module';

// Node >= 22.1 can cache the compiled code of our modules between runs (each hook run pays for
// compiling ~35 of them otherwise). Where Node lacks it, or it cannot write its cache folder
// (os.tmpdir(), or NODE_COMPILE_CACHE), nothing changes: it is only ever a speed-up.
try {
  module.enableCompileCache?.();
} catch {
  // not available here: run uncached
}

/**
 * Defence in depth against catastrophic backtracking: V8 falls back to its linear-time engine
 * when a regex backtracks excessively. Set before any module that compiles user patterns or globs
 * loads (after the commit hook's git work has started: that code runs only fixed regexes).
 */
async function linearRegexFallback() {
  const { default: v8 } = await import('node:v8');
  v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
}

const argv = process.argv.slice(2);

/**
 * The commit hooks run on every commit, so they take a fast path: one bundled file without
 * commander or the general CLI (src/cli/hook-entry.ts, docs/hooks.md "Speed"). It declines
 * anything but plain options (the full CLI then answers), and is skipped when dist/ has no
 * current bundle (the full CLI then runs the hook, the same way). True when it ran the hook.
 */
async function fastHook() {
  if (argv[0] !== 'hook' || (argv[1] !== 'pre-commit' && argv[1] !== 'pre-merge-commit')) return false;
  if (!bundleIsCurrent()) return false;
  // git starts on the commit's first questions while node loads the hook's code (hooks/commit-start.ts).
  const { startCommitHook } = await import('../dist/commit-start.mjs');
  const started = startCommitHook(argv, process.env, process.cwd());
  await linearRegexFallback();
  const fast = await import('../dist/hook.mjs');
  return fast.main(argv, started);
}

/**
 * False when tsc rebuilt dist/ after the bundle was made (a `tsc` run without `npm run build`):
 * the bundle would run older code than dist/. A package without dist/.tsbuildinfo (the npm
 * tarball) was bundled by the build that made it.
 */
function bundleIsCurrent() {
  const mtime = (rel) => statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? null;
  const bundled = Math.min(mtime('../dist/hook.mjs') ?? -1, mtime('../dist/commit-start.mjs') ?? -1);
  const compiled = mtime('../dist/.tsbuildinfo');
  return bundled !== -1 && (compiled === null || bundled >= compiled);
}

if (!(await fastHook())) {
  await linearRegexFallback();
  let entry;
  try {
    entry = await import('../dist/src/cli/main.js');
  } catch (error) {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
      process.stderr.write(
        'findings: the compiled code in dist/ is missing; run `npm install` (or `npm run build`) in the findings-compiler package\n',
      );
      process.exit(2);
    }
    throw error;
  }
  await entry.main(argv);
}
