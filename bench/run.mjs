#!/usr/bin/env node
// `npm run bench [name …]`: builds, runs every bench/*.bench.mjs (or those whose name contains
// one of the arguments) each in its own process, and ends with one summary table built from the
// `BENCH_RESULT {json}` line each speed bench prints last (bench/lib/common.mjs emitResult).
// Sizes: BENCH_SCALE=0.1 (and the per-bench variables each file documents) for a quick run.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
if (!process.env.BENCH_NO_BUILD) execFileSync('npm', ['run', 'build'], { cwd: path.join(here, '..'), stdio: 'inherit' });

function runOne(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', path.join(here, file)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

const summary = [];
const failures = [];
for (const f of readdirSync(here)
  .filter((n) => n.endsWith('.bench.mjs'))
  .sort()) {
  if (only.length > 0 && !only.some((o) => f.includes(o))) continue;
  console.log(`\n## ${f}`);
  const { code, out } = await runOne(f);
  if (code !== 0) failures.push(`${f} exited ${code}`);
  const line = out
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('BENCH_RESULT '));
  if (line) for (const row of JSON.parse(line.slice('BENCH_RESULT '.length)).rows) summary.push(row);
}

const num = (x, unit) =>
  x === null || x === undefined ? '-' : `${Number(x).toFixed(unit === 'MB' || x >= 100 ? 0 : 1)}${unit ? ` ${unit}` : ''}`;
const table = [
  ['row', 'figure', 'floor', 'ratio', 'target', 'pass', 'load 1/5/15'],
  ...summary.map((r) => [
    r.row,
    num(r.figure, r.unit),
    r.floor === null || r.floor === undefined ? '-' : `${num(r.floor, r.unit)} (${r.floorLabel})`,
    r.ratio === null || r.ratio === undefined ? '-' : `${Number(r.ratio).toFixed(2)}x`,
    r.target,
    r.pass ? 'pass' : 'FAIL',
    (r.load ?? []).join(' '),
  ]),
];
const w = table[0].map((_, c) => Math.max(...table.map((r) => r[c].length)));
console.log(
  `\n## summary (BENCH_SCALE=${process.env.BENCH_SCALE ?? 1}; load now ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')})`,
);
table.forEach((r, i) => {
  console.log(`| ${r.map((v, c) => v.padEnd(w[c])).join(' | ')} |`);
  if (i === 0) console.log(`| ${w.map((n) => '-'.repeat(n)).join(' | ')} |`);
});
for (const f of failures) console.log(`bench failed: ${f}`);
process.exitCode = failures.length > 0 ? 1 : 0;
