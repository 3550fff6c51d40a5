#!/usr/bin/env node
// `findings-compile [options]` is `findings compile [options]`.
import module from 'node:module';
import v8 from 'node:v8';

// Node >= 22.1 can cache the compiled code of our modules between runs (each hook run pays for
// compiling ~35 of them otherwise). Where Node lacks it, or it cannot write its cache folder
// (os.tmpdir(), or NODE_COMPILE_CACHE), nothing changes: it is only ever a speed-up.
try {
  module.enableCompileCache?.();
} catch {
  // not available here: run uncached
}

v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

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
