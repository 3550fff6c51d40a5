#!/usr/bin/env node
// Committed plain-JS launcher (pitfalls.md #2): tsc drops exec bits, and Node 20 cannot run .ts.
import v8 from 'node:v8';

// Defence in depth against catastrophic backtracking: V8 falls back to its linear-time engine
// when a regex backtracks excessively. Must be set before any pattern is compiled.
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

let entry;
try {
  entry = await import('../dist/src/cli/main.js');
} catch (error) {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
    process.stderr.write('findings: the compiled code in dist/ is missing; run `npm install` (or `npm run build`) in the findings-compiler package\n');
    process.exit(2);
  }
  throw error;
}
await entry.main(process.argv.slice(2));
