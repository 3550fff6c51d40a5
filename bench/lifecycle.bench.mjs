#!/usr/bin/env node
// `findings constraint measure` over a generated history of COMMITS (10,000) commits, each
// changing 1..10 files of ~2.5–4.2 KB (≈ 180 MB of changed blobs at full size), with CONSTRAINTS
// (5) shadow constraints. Through the real bin, peak RSS from /usr/bin/time. Floor, in the same
// run: streaming the same history and every changed blob through git
// (`git log --raw | git cat-file --batch`). A run over the newer half of the history
// (`--commits N/2`) shows whether peak memory grows with the history's length.
// Targets: peak <= 300 MB whatever the history length (half -> full grows <= 10 %);
// an eslint-sized history (~11,000 commits) in <= 10 s.
//   node --expose-gc bench/lifecycle.bench.mjs         BENCH_SCALE=0.1 for a quick run
//   BENCH_COMMITS, BENCH_MEASURE_RUNS (3) override.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BIN,
  cachedRepo,
  constraintEntry,
  emitResult,
  fastImport,
  fmt,
  load,
  paired,
  printParams,
  prng,
  runs,
  size,
  timeOnce,
  writeIndex,
} from './lib/common.mjs';

const COMMITS = size('BENCH_COMMITS', 10_000, 20);
const CONSTRAINTS = 5;
const FILES = 2000;
const PER_COMMIT = 10;
const RUNS = runs('BENCH_MEASURE_RUNS', 3);

const markers = Array.from({ length: CONSTRAINTS }, (_, i) => `forbidden${i}`);

function fileText(rand) {
  const lines = [];
  const n = 35 + Math.floor(rand() * 25); // ≈ 3.3 KB: ≈ 18 KB changed per commit, ≈ 180 MB per 10,000
  for (let i = 0; i < n; i += 1) {
    if (rand() < 0.04) lines.push(`  ${markers[Math.floor(rand() * markers.length)]}(value${i}); // flagged`);
    else lines.push(`  const value${i} = compute(${Math.floor(rand() * 100000)}, "some text to make the line longer");`);
  }
  return `${lines.join('\n')}\n`;
}

let changedBytes = 0;
async function build(dir) {
  const rand = prng(7);
  const paths = Array.from({ length: FILES }, (_, i) => `src/pkg${i % 17}/module${i}.ts`);
  await fastImport(dir, async (write) => {
    for (let c = 1; c <= COMMITS; c += 1) {
      await write(
        `commit refs/heads/main\nmark :${c}\ncommitter B <b@example.com> ${1_700_000_000 + c * 60} +0000\ndata 9\ncommit ${String(c % 10)}\n`,
      );
      if (c > 1) await write(`from :${c - 1}\n`);
      const chosen =
        c === 1
          ? paths.slice(0, 50)
          : Array.from({ length: 1 + Math.floor(rand() * PER_COMMIT) }, () => paths[Math.floor(rand() * paths.length)]);
      for (const p of new Set(chosen)) {
        const text = Buffer.from(fileText(rand));
        changedBytes += text.length;
        await write(`M 100644 inline ${p}\ndata ${text.length}\n`);
        await write(text);
        await write('\n');
      }
    }
  });
  writeFileSync(`${dir}.json`, JSON.stringify({ changedBytes }));
  writeIndex(
    dir,
    markers.map((m, i) =>
      constraintEntry(i, `\\b${m}\\(`, { status: 'shadow', globs: i % 2 === 0 ? ['src/**/*.ts'] : [`src/pkg${i % 17}/**`, 'src/pkg1/**'] }),
    ),
  );
}

// v2: the generator's version; bump it when the generated history changes.
const key = `measure-v2-c${COMMITS}-k${CONSTRAINTS}`;
const cache = await cachedRepo(key, build);
const root = cache.dir;
if (!cache.built) changedBytes = JSON.parse(readFileSync(`${root}.json`, 'utf8')).changedBytes;
printParams(`findings constraint measure: ${COMMITS} commits x ${CONSTRAINTS} shadow constraints`, {
  commits: COMMITS,
  constraints: CONSTRAINTS,
  changedMB: (changedBytes / 1e6).toFixed(0),
  runs: RUNS,
  repo: cache.built ? `generated in ${fmt(cache.ms)} ms (${key})` : `cached (${key})`,
});

const measurements = path.join(root, '.agents', 'constraints', 'measurements');
const measure =
  (extra = []) =>
  () => {
    rmSync(measurements, { recursive: true, force: true }); // every run measures from scratch
    return timeOnce(process.execPath, [BIN, 'constraint', 'measure', '--json', ...extra], { cwd: root, rss: true });
  };
const readHistory = () =>
  timeOnce('sh', ['-c', "git log --no-abbrev --raw --format= HEAD | awk '{print $4}' | git cat-file --batch >/dev/null"], {
    cwd: root,
    rss: true,
  });

const peaks = [];
const full = measure();
const r = paired(RUNS, [readHistory], () => {
  const x = full();
  peaks.push(x.rssMb);
  return x;
});
const half = measure(['--commits', String(Math.floor(COMMITS / 2))])();
const floorRss = readHistory().rssMb;
const peak = Math.max(...peaks);
const growth = peak / half.rssMb;
const timeTarget = 10_000; // the figure for an eslint-sized history (~11,000 commits); not pro-rated
const timePass = r.subject <= timeTarget;
const peakPass = peak <= 300 && growth <= 1.1;

console.log(`medians of ${RUNS} paired runs; load1 during runs ${r.load1.min}..${r.load1.max}`);
console.log('| measure | findings constraint measure | floor (git log --raw | cat-file --batch) | ratio | target |');
console.log('| --- | ---: | ---: | ---: | --- |');
console.log(
  `| time (ms) | ${fmt(r.subject)} | ${fmt(r.floor)} | ${fmt(r.subject / r.floor, 2)} ` +
    `| <= ${fmt(timeTarget)} ms (eslint-sized history): ${timePass ? 'met' : 'MISSED'} |`,
);
console.log(`| peak RSS, full history (MB) | ${fmt(peak)} | ${fmt(floorRss)} | | <= 300 MB: ${peak <= 300 ? 'met' : 'MISSED'} |`);
console.log(
  `| peak RSS, newer half (MB) | ${fmt(half.rssMb)} | | ${fmt(growth, 2)} (full/half) | <= 1.10 growth: ${growth <= 1.1 ? 'met' : 'MISSED'} |`,
);
const l = load();
emitResult('lifecycle', { commits: COMMITS, constraints: CONSTRAINTS, changedMB: Math.round(changedBytes / 1e6), runs: RUNS }, [
  {
    row: `constraint measure time (${COMMITS} commits x ${CONSTRAINTS})`,
    figure: r.subject,
    unit: 'ms',
    floor: r.floor,
    floorLabel: 'git log --raw | cat-file --batch',
    ratio: r.subject / r.floor,
    target: `<= ${fmt(timeTarget)} ms`,
    pass: timePass,
    load: l,
  },
  {
    row: `constraint measure peak RSS (${COMMITS} commits)`,
    figure: peak,
    unit: 'MB',
    floor: half.rssMb,
    floorLabel: 'peak over newer half',
    ratio: growth,
    target: '<= 300 MB, <= 1.10x half',
    pass: peakPass,
    load: l,
  },
]);
