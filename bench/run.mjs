#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.mjs in order, each in its own process, after a build.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
execFileSync('npm', ['run', 'build'], { cwd: path.join(here, '..'), stdio: 'inherit' });
for (const f of readdirSync(here).filter((n) => n.endsWith('.bench.mjs')).sort()) {
  if (only.length > 0 && !only.some((o) => f.includes(o))) continue;
  console.log(`\n## ${f}`);
  execFileSync(process.execPath, ['--expose-gc', path.join(here, f)], { stdio: 'inherit' });
}
