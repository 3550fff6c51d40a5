// What both bin launchers share: the full CLI (dist/src/cli/main.js, ES modules), and the V8 flag
// every run sets before it compiles a user's pattern or glob. CommonJS (bin/package.json).
'use strict';

/**
 * Defence in depth against catastrophic backtracking: V8 falls back to its linear-time engine
 * when a regex backtracks excessively. Set before any module that compiles user patterns or globs
 * loads (for the commit hook, after its git work has started: that code runs only fixed regexes).
 */
function linearRegexFallback() {
  require('node:v8').setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
}

// Node >= 22.1 can cache the compiled code of our modules between runs. Where Node lacks it, or
// it cannot write its cache folder (os.tmpdir(), or NODE_COMPILE_CACHE), nothing changes: it is
// only ever a speed-up.
function enableCompileCache() {
  try {
    require('node:module').enableCompileCache?.();
  } catch {
    // not available here: run uncached
  }
}

/** Runs `argv` through the full CLI; `name` is the command the user typed, for the message when dist/ is missing. */
async function runFullCli(name, argv) {
  enableCompileCache();
  linearRegexFallback();
  let entry;
  try {
    entry = await import('../dist/src/cli/main.js');
  } catch (error) {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
      process.stderr.write(
        `${name}: the compiled code in dist/ is missing; run \`npm install\` (or \`npm run build\`) in the findings-compiler package\n`,
      );
      process.exit(2);
    }
    throw error;
  }
  await entry.main(argv);
}

module.exports = { enableCompileCache, linearRegexFallback, runFullCli };
