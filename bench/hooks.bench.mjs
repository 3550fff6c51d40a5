#!/usr/bin/env node
// `findings hook pre-commit` with STAGED (500) edited ~2 KB files in a FILES (5,000)-file
// repository with CONSTRAINTS (100) active regex constraints, against the floor measured in the
// same run: `node -e 0` plus `git grep --cached -P` with the same patterns on the same files.
// Paired runs (floor, hook, floor, hook …), median of RUNS (>= 10).
// Target: hook <= 1.5 x floor, and <= 300 ms absolute on a quiet machine.
//   node --expose-gc bench/hooks.bench.mjs            BENCH_SCALE=0.1 for a quick run
//   BENCH_HOOK_FILES, BENCH_HOOK_STAGED, BENCH_HOOK_CONSTRAINTS, BENCH_RUNS override one size.
//   --prepare-only prints the prepared repository's path (used for profiling) and exits.
//   BENCH_HOOK_BEFORE=<another checkout's bin/findings.js> also pairs that build with this one on
//   the same staged repository (before/after a change: median of each and the paired ratio).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BIN,
  cachedRepo,
  constraintEntry,
  emitResult,
  fastImport,
  fmt,
  git,
  load,
  paired,
  printParams,
  runs,
  size,
  timeOnce,
} from './lib/common.mjs';

const FILES = size('BENCH_HOOK_FILES', 5000, 10);
const STAGED = Math.min(FILES, size('BENCH_HOOK_STAGED', 500, 5));
const CONSTRAINTS = Number(process.env.BENCH_HOOK_CONSTRAINTS ?? 100);
const RUNS = runs('BENCH_HOOK_RUNS', 10);

const patterns = Array.from({ length: CONSTRAINTS }, (_, i) => `\\bforbidden_call_${i}\\(`);
const relOf = (i) => `src/d${i % 50}/f${i}.js`;

function fileText(n) {
  const lines = [];
  let len = 0;
  for (let i = 0; len < 2000; i += 1) {
    const l = `export function f${n}_${i}(a, b) { return a + b * ${i}; } // line ${i}`;
    lines.push(l);
    len += l.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

async function build(dir) {
  const index = Buffer.from(`${JSON.stringify({ version: 1, constraints: patterns.map((p, i) => constraintEntry(i, p)) }, null, 2)}\n`);
  await fastImport(dir, async (write) => {
    await write('commit refs/heads/main\ncommitter B <b@example.com> 1700000000 +0000\ndata 4\nbase\n');
    await write(`M 100644 inline .agents/constraints/index.json\ndata ${index.length}\n`);
    await write(index);
    await write('\n');
    for (let i = 0; i < FILES; i += 1) {
      const t = Buffer.from(fileText(i));
      await write(`M 100644 inline ${relOf(i)}\ndata ${t.length}\n`);
      await write(t);
      await write('\n');
    }
  });
  git(dir, ['reset', '-q', '--hard', 'main']); // index and working tree
}

const key = `hook-f${FILES}-c${CONSTRAINTS}`;
const cache = await cachedRepo(key, build);
const root = cache.dir;

// Start from the committed state, then stage the edits the hook will judge.
git(root, ['reset', '-q', '--hard', 'main']);
const paths = [];
for (let i = 0; i < STAGED; i += 1) {
  writeFileSync(path.join(root, relOf(i)), `${fileText(i)}// edited\n`);
  paths.push(relOf(i));
}
git(root, ['add', '--', ...paths]);

if (process.argv.includes('--prepare-only')) {
  console.log(root);
  process.exit(0);
}

printParams(`findings hook pre-commit: ${STAGED} staged files x ${CONSTRAINTS} active constraints, ${FILES}-file repository`, {
  files: FILES,
  staged: STAGED,
  constraints: CONSTRAINTS,
  runs: RUNS,
  repo: cache.built ? `generated (${key})` : `cached (${key})`,
});

const hook = () => timeOnce(process.execPath, [BIN, 'hook', 'pre-commit'], { cwd: root });
const nodeFloor = () => timeOnce(process.execPath, ['-e', '0'], { cwd: root });
// okStatus 1: git grep exits 1 when nothing matches (the staged files carry no violation).
const grepFloor = () =>
  timeOnce('git', ['grep', '--cached', '-I', '-P', ...patterns.flatMap((p) => ['-e', p]), '--', ...paths], { cwd: root, okStatus: [0, 1] });

hook(); // warm the page cache and the OS for both sides alike
grepFloor();
const r = paired(RUNS, [nodeFloor, grepFloor], hook);
const before = process.env.BENCH_HOOK_BEFORE;
if (before) {
  const old = () => timeOnce(process.execPath, [path.resolve(before), 'hook', 'pre-commit'], { cwd: root });
  old();
  const b = paired(RUNS, [old], hook);
  console.log(`before/after, median of ${RUNS} paired runs (ms); load1 during runs ${b.load1.min}..${b.load1.max}`);
  console.log(
    `| before ${fmt(b.floor)} | after ${fmt(b.subject)} | ratio ${fmt(b.subject / b.floor, 2)} | paired ratio ${fmt(b.pairedRatio, 2)} |`,
  );
}
git(root, ['reset', '-q', '--hard', 'main']);

const ratio = r.subject / r.floor;
const pass = ratio <= 1.5 && r.subject <= 300;
console.log(`median of ${RUNS} paired runs (ms); load1 during runs ${r.load1.min}..${r.load1.max}`);
console.log('| findings hook pre-commit | node -e 0 | git grep --cached -P | floor (sum) | ratio | paired ratio | target |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | --- |');
console.log(
  `| ${fmt(r.subject)} | ${fmt(r.parts[0])} | ${fmt(r.parts[1])} | ${fmt(r.floor)} | ${fmt(ratio, 2)} ` +
    `| ${fmt(r.pairedRatio, 2)} | <= 1.5x floor and <= 300 ms: ${pass ? 'met' : 'MISSED'} |`,
);
emitResult('hooks', { files: FILES, staged: STAGED, constraints: CONSTRAINTS, runs: RUNS }, [
  {
    row: `hook pre-commit (${STAGED} staged x ${CONSTRAINTS} constraints, ${FILES} files)`,
    figure: r.subject,
    unit: 'ms',
    floor: r.floor,
    floorLabel: 'node -e 0 + git grep --cached -P',
    ratio,
    target: '<= 1.5x floor, <= 300 ms',
    pass,
    load: load(),
  },
]);
