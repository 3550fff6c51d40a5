#!/usr/bin/env node
// Bundles the commit hooks' fast path (dist/src/cli/hook-entry.js, built by tsc) into one file,
// dist/hook.cjs, which bin/findings.js loads for `findings hook pre-commit|pre-merge-commit`
// (docs/hooks.md "Speed"): one file to read and compile instead of ~100 modules resolved,
// read and linked one by one; and dist/commit-start.cjs, which the launcher loads first to start
// the commit's git work (hooks/commit-start.ts). Run after tsc (npm run build, scripts/prepare.mjs).
//
// Both are CommonJS, as the launcher is: node runs a plain commit without starting its ES module
// loader. What the bundle holds: the modules the entry imports statically, packages included.
// What it leaves as they are: every dynamic import (validation, the drift check, SARIF,
// operations …: loaded only when a commit needs them), which stays an `import()` of its ES module
// in dist/, by relative path. A module those load may be a second copy of one inside the bundle;
// the error classes the CLI recognises are branded (src/exit-codes.ts, src/git/core.ts), so
// `instanceof` holds across the copies. The launcher falls back to the full CLI when the bundle
// is absent.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const OUT = path.join(dist, 'hook.cjs');

const relativeToBundle = (abs) => {
  const rel = path.relative(path.dirname(OUT), abs).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
};

/**
 * Keeps every dynamic import out of the bundle, as an `import()` of its dist/ file, so what a
 * commit does not need is never loaded; a module imported statically is always inside (a
 * `require` of an ES module would start node's ES module loader). Gives the bundle's own require
 * for createRequire. Marks commander free of side effects: the hook reaches src/cli/options.ts and
 * warnings.ts only for functions that never touch it, so it drops out of the bundle.
 */
const bundlePlugin = {
  name: 'hook-bundle',
  setup(build) {
    build.onResolve({ filter: /^commander$/ }, () => ({ path: path.join(root, 'node_modules/commander/esm.mjs'), sideEffects: false }));
    // Node's `module` builtin starts its ES module loader when it loads. Our modules take only
    // createRequire(import.meta.url) from it, to load packages and absolute paths; the bundle is
    // CommonJS and its own require resolves those from dist/ just the same.
    build.onResolve({ filter: /^node:module$/ }, () => ({ path: 'node:module', namespace: 'bundle-require' }));
    build.onLoad({ filter: /^/, namespace: 'bundle-require' }, () => ({ contents: 'export const createRequire = () => require;' }));
    build.onResolve({ filter: /^\.\.?\// }, (args) =>
      args.kind === 'dynamic-import' ? { path: relativeToBundle(path.resolve(args.resolveDir, args.path)), external: true } : undefined,
    );
  },
};

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // An install without devDependencies: the launcher runs the full CLI, as before bundling.
  process.stdout.write('bundle-hook: esbuild is not installed; dist/hook.cjs not built (the hook runs unbundled)\n');
  process.exit(0);
}

const options = (entry, outfile) => ({
  entryPoints: [path.join(dist, entry)],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Our modules locate files beside themselves (src/package-root.ts, createRequire): in the bundle,
  // beside the bundle. Its dynamic imports go through __bundleImport (see importsThroughHost).
  banner: {
    js:
      "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;\n" +
      'const __bundleImport = (s) => { const u = new URL(s, __bundleUrl).href; ' +
      "return typeof __hostImport === 'function' ? __hostImport(u) : import(u); };",
  },
  define: { 'import.meta.url': '__bundleUrl' },
  plugins: [bundlePlugin],
  metafile: true,
  logLevel: 'warning',
  legalComments: 'eof',
  // Less for V8 to parse on every commit, and only ASCII (comments gone), which node reads as a
  // one-byte string; identifiers keep their names, so an internal error's stack still reads.
  minifyWhitespace: true,
  minifySyntax: true,
});

// The ES module bundles of earlier builds: nothing loads them, and a stale file only misleads.
for (const old of ['hook.mjs', 'commit-start.mjs']) rmSync(path.join(dist, old), { force: true });

/**
 * The bundle's dynamic imports of dist/'s ES modules, as calls of __bundleImport: compiled with its
 * code cache (hooks/bundle-loader.ts), the bundle imports through the loader's `import()`, because
 * code compiled by `vm` cannot import without an experimental flag. Loaded by `require`, it
 * imports itself. The banner's `import()` must be the only one left.
 */
function importsThroughHost(file) {
  const text = readFileSync(file, 'utf8').replace(/(?<![\w$.])import\(("\.\.?\/[^"]+")\)/g, '__bundleImport($1)');
  const left = text.match(/(?<![\w$.])import\(/g)?.length ?? 0;
  if (left !== 1)
    throw new Error(`bundle-hook: ${path.relative(root, file)} has ${left - 1} dynamic import(s) the code cache cannot serve`);
  writeFileSync(file, text);
}

const result = await esbuild.build(options('src/cli/hook-entry.js', OUT));
importsThroughHost(OUT);
const inputs = Object.keys(result.metafile.inputs).sort();
// The modules with code in the bundle (tree-shaken ones have none), for the test that keeps heavy
// packages out of it (test/hooks/hook-modules.test.ts).
const output = Object.values(result.metafile.outputs)[0];
const kept = Object.entries(output?.inputs ?? {}).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : []));
writeFileSync(path.join(dist, 'hook.inputs.txt'), `${kept.sort().join('\n')}\n`);
process.stdout.write(`bundle-hook: ${path.relative(root, OUT)} from ${inputs.length} modules\n`);

// The launcher's first step, before it loads the bundle: starting the commit's git work
// (hooks/commit-start.ts). One small file too.
const START = path.join(dist, 'commit-start.cjs');
await esbuild.build(options('hooks/commit-start.js', START));
process.stdout.write(`bundle-hook: ${path.relative(root, START)}\n`);

// V8's code for the bundle (scripts/hook-code-cache.cjs): made now, from this bundle, or not at all.
const CACHE = path.join(dist, 'hook.cache');
rmSync(CACHE, { force: true });
// Without NODE_OPTIONS: V8 takes a cache only under the flags it was made with, and a hook runs with none.
const { NODE_OPTIONS: _ignored, ...cacheEnv } = process.env;
const made = spawnSync(process.execPath, [path.join(root, 'scripts/hook-code-cache.cjs')], {
  cwd: root,
  env: cacheEnv,
  encoding: 'utf8',
  stdio: ['ignore', 'ignore', 'pipe'],
});
for (const line of (made.stderr ?? '').split('\n')) if (line.startsWith('hook-code-cache:')) process.stdout.write(`${line}\n`);
process.stdout.write(
  `bundle-hook: ${path.relative(root, CACHE)}${existsSync(CACHE) ? '' : ' not made (the hook compiles its bundle each run)'}\n`,
);
if (process.env.BUNDLE_HOOK_LIST) for (const i of inputs) process.stdout.write(`  ${i}\n`);
