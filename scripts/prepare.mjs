#!/usr/bin/env node
// npm's `prepare` (runs on `npm ci`/`npm install` in a clone, on `npm pack`, and in the temp
// clone npm makes for a git URL install). Builds dist/ when TypeScript is installed — an
// incremental build, so it is a no-op when dist/ is current (tsconfig.json: dist/.tsbuildinfo)
// and `npm test` after `npm ci` does not build twice. Without TypeScript (a folder linked into a
// project before anyone ran `npm ci` in it) it cannot build: with dist/ present that is fine,
// without it the tool cannot run, so it says what to do and fails. Then installs this
// repository's own husky hooks when husky is here (never fatal: e.g. no .git in a temp clone).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const resolves = (id) => {
  try {
    return require.resolve(id);
  } catch {
    return null;
  }
};
const built = existsSync(path.join(root, 'dist/src/cli/main.js')) && existsSync(path.join(root, 'dist/validators'));
const tsc = resolves('typescript/bin/tsc');

if (tsc !== null && existsSync(path.join(root, 'tsconfig.json'))) {
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  const v = spawnSync(process.execPath, ['schemas/build-validators.mjs'], { cwd: root, stdio: 'inherit' });
  if (v.status !== 0) process.exit(v.status ?? 1);
  // The commit hooks' one-file fast path (dist/hook.cjs, and its code cache); without esbuild it says so and the hook runs unbundled.
  const b = spawnSync(process.execPath, ['scripts/bundle-hook.mjs'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
} else if (!built) {
  process.stderr.write(
    'findings-compiler: dist/ is not built and TypeScript is not installed in this folder.\n' +
      `  Run \`npm ci\` in ${root} first (it builds dist/), or install from a git URL or an \`npm pack\` tarball (see the README).\n`,
  );
  process.exit(1);
}

const husky = resolves('husky/bin.js');
if (husky !== null && existsSync(path.join(root, '.git'))) spawnSync(process.execPath, [husky], { cwd: root, stdio: 'inherit' });
