#!/usr/bin/env node
// What loading a module costs a fresh process: for each specifier, `node -e "await import(x)"`
// against `node -e 0`, interleaved, median of RUNS, as wall time and as CPU time (user + sys,
// from /usr/bin/time, less sensitive to a loaded machine). Used for the hook's profile.
//   node bench/lib/import-cost.mjs [runs=10] specifier…   (paths relative to the repository)
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [runsArg, ...specs] = process.argv.slice(2);
const RUNS = Number(runsArg);
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const url = (s) => (s.startsWith('.') || s.startsWith('/') ? pathToFileURL(path.resolve(repo, s)).href : s);
const subjects = [['node -e 0', '0'], ...specs.map((s) => [s, `await import(${JSON.stringify(url(s))})`])];
const out = path.join(tmpdir(), `import-cost-${process.pid}`);
const samples = subjects.map(() => ({ wall: [], cpu: [] }));
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let r = 0; r < RUNS; r += 1) {
  subjects.forEach(([, code], i) => {
    const t0 = process.hrtime.bigint();
    const res = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', out, process.execPath, '--input-type=module', '-e', code], { cwd: repo });
    const wall = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.status !== 0) throw new Error(`${code}: ${res.stderr}`);
    const [u, s] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    samples[i].wall.push(wall);
    samples[i].cpu.push((u + s) * 1000);
  });
}
rmSync(out, { force: true });
console.log(
  `median of ${RUNS} interleaved runs; load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log('| import | wall ms | cpu ms | wall - node -e 0 | cpu - node -e 0 |');
console.log('| --- | ---: | ---: | ---: | ---: |');
const base = { wall: med(samples[0].wall), cpu: med(samples[0].cpu) };
subjects.forEach(([name], i) => {
  const w = med(samples[i].wall);
  const c = med(samples[i].cpu);
  console.log(`| ${name} | ${w.toFixed(0)} | ${c.toFixed(0)} | ${(w - base.wall).toFixed(0)} | ${(c - base.cpu).toFixed(0)} |`);
});
