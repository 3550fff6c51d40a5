// `node --import ./module-trace.mjs …`: appends every module the process loads (ESM resolutions
// and CommonJS cache entries) to the file named by FINDINGS_MODULE_TRACE, one per line. Used by
// test/hooks/hook-modules.test.ts to prove the pre-commit path stays lean (docs/hooks.md "Speed").
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const out = process.env.FINDINGS_MODULE_TRACE;
if (out) {
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(out)}, resolved.url + '\\n');
  return resolved;
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () => appendFileSync(out, `${Object.keys(cache).join('\n')}\n`));
}
