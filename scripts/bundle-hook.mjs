#!/usr/bin/env node
// Bundles the commit hooks' fast path (dist/src/cli/hook-entry.js, built by tsc) into one file,
// dist/hook.mjs, which bin/findings.js loads for `findings hook pre-commit|pre-merge-commit`
// (docs/hooks.md "Speed"): one file to read and compile instead of ~100 modules resolved,
// read and linked one by one; and dist/commit-start.mjs, which the launcher loads first to start
// the commit's git work (hooks/commit-start.ts). Run after tsc (npm run build, scripts/prepare.mjs).
//
// What the bundle holds: the modules the entry imports statically, packages included. What it
// leaves as they are: every dynamic import (validation, the drift check, SARIF, operations …:
// loaded only when a commit needs them) and the modules that define the error classes the CLI
// recognises (src/exit-codes.js, src/git/core.js), so an error thrown by a module loaded later
// is the same class the bundle's `instanceof` checks. Those stay files of dist/, imported from
// the bundle by relative path; the launcher falls back to the full CLI when the bundle is absent.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const OUT = path.join(dist, 'hook.mjs');
/** dist modules shared with what the bundle loads later (class identity), by path under dist/. */
const SHARED = new Set(['src/exit-codes.js', 'src/git/core.js']);

const relativeToBundle = (abs) => {
  const rel = path.relative(path.dirname(OUT), abs).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
};

/**
 * Keeps dynamic imports out of the bundle, pointing at their dist/ files; also every module that
 * is a dynamic target anywhere, and the SHARED ones, where they are imported statically: a module
 * never has two instances (one inside the bundle, one loaded later), so its classes stay one.
 * Marks commander free of side effects: the hook reaches src/cli/options.ts and warnings.ts only
 * for functions that never touch it, so it drops out of the bundle.
 */
function keepOutside(outside) {
  return {
    name: 'keep-outside',
    setup(build) {
      build.onResolve({ filter: /^commander$/ }, () => ({ path: path.join(root, 'node_modules/commander/esm.mjs'), sideEffects: false }));
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const abs = path.resolve(args.resolveDir, args.path);
        if (args.kind === 'dynamic-import') outside.add(abs);
        if (outside.has(abs) || SHARED.has(path.relative(dist, abs).split(path.sep).join('/'))) {
          return { path: relativeToBundle(abs), external: true };
        }
        return undefined;
      });
    },
  };
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // An install without devDependencies: the launcher runs the full CLI, as before bundling.
  process.stdout.write('bundle-hook: esbuild is not installed; dist/hook.mjs not built (the hook runs unbundled)\n');
  process.exit(0);
}

const options = (outside, entry = 'src/cli/hook-entry.js', outfile = OUT) => ({
  entryPoints: [path.join(dist, entry)],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // CommonJS packages inside an ESM bundle need a require (picomatch, the standalone validators).
  banner: { js: "import { createRequire as __findingsRequire } from 'node:module'; const require = __findingsRequire(import.meta.url);" },
  plugins: [keepOutside(outside)],
  metafile: true,
  logLevel: 'warning',
  legalComments: 'eof',
  // Less for V8 to parse on every commit, and only ASCII (comments gone), which node reads as a
  // one-byte string; identifiers keep their names, so an internal error's stack still reads.
  minifyWhitespace: true,
  minifySyntax: true,
});

// First pass: learn every dynamic target; second: keep those out wherever they are imported.
const outside = new Set();
await esbuild.build({ ...options(outside), write: false });
const result = await esbuild.build(options(outside));
const inputs = Object.keys(result.metafile.inputs).sort();
// The modules with code in the bundle (tree-shaken ones have none), for the test that keeps heavy
// packages out of it (test/hooks/hook-modules.test.ts).
const output = Object.values(result.metafile.outputs)[0];
const kept = Object.entries(output?.inputs ?? {}).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : []));
writeFileSync(path.join(dist, 'hook.inputs.txt'), `${kept.sort().join('\n')}\n`);
process.stdout.write(`bundle-hook: ${path.relative(root, OUT)} from ${inputs.length} modules\n`);

// The launcher's first step, before it loads the bundle: starting the commit's git work
// (hooks/commit-start.ts). One small file too, sharing src/git/core.js with the bundle.
const START = path.join(dist, 'commit-start.mjs');
await esbuild.build(options(outside, 'hooks/commit-start.js', START));
process.stdout.write(`bundle-hook: ${path.relative(root, START)}\n`);
if (process.env.BUNDLE_HOOK_LIST) for (const i of inputs) process.stdout.write(`  ${i}\n`);
