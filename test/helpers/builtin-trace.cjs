// `node --require ./builtin-trace.cjs …`: on exit, writes the Node builtins the process loaded
// (`process.moduleLoadList`), one per line, to the file named by FINDINGS_BUILTIN_TRACE. Used by
// test/hooks/hook-modules.test.ts: the commit hook loads no builtin it does not need
// (src/lazy-builtins.ts). A plain CommonJS preload, so it starts no loader thread of its own.
const { writeFileSync } = require('node:fs');

const out = process.env.FINDINGS_BUILTIN_TRACE;
if (out) {
  process.on('exit', () => {
    const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
    writeFileSync(out, `${builtins.join('\n')}\n`);
  });
}
