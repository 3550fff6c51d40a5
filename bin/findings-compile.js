#!/usr/bin/env node
// `findings-compile [options]` is `findings compile [options]`.
import v8 from 'node:v8';

v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

let entry;
try {
  entry = await import('../dist/src/cli/main.js');
} catch (error) {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
    process.stderr.write('findings-compile: the compiled code in dist/ is missing; run `npm install` (or `npm run build`) in the findings-compiler package\n');
    process.exit(2);
  }
  throw error;
}
await entry.main(['compile', ...process.argv.slice(2)]);
