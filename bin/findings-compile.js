#!/usr/bin/env node
// `findings-compile [options]` is `findings compile [options]`.
// CommonJS, as bin/findings.js (bin/package.json).
'use strict';

// Node >= 22.1 can cache the compiled code of our modules between runs. Where Node lacks it, or
// it cannot write its cache folder (os.tmpdir(), or NODE_COMPILE_CACHE), nothing changes: it is
// only ever a speed-up.
try {
  require('node:module').enableCompileCache?.();
} catch {
  // not available here: run uncached
}

require('node:v8').setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

async function run() {
  let entry;
  try {
    entry = await import('../dist/src/cli/main.js');
  } catch (error) {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
      process.stderr.write(
        'findings-compile: the compiled code in dist/ is missing; run `npm install` (or `npm run build`) in the findings-compiler package\n',
      );
      process.exit(2);
    }
    throw error;
  }
  await entry.main(['compile', ...process.argv.slice(2)]);
}

// A rejection stays unhandled, as a top-level await left it: node prints it and exits 1.
void run();
