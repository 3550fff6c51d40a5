#!/usr/bin/env node
// `findings check --all` on FILES (100,000) tracked ~1 KB files with CONSTRAINTS (100) active
// regex constraints, against `git grep --cached -I -P` with the same patterns over the same files,
// in paired runs (grep, check, grep, check …). One file in 1,000 carries a violation, so both
// sides report something and their file counts can be compared.
// Target: check --all <= 2 x git grep -P (and both cores used when the work is large).
//   node --expose-gc bench/check-all.bench.mjs        BENCH_SCALE=0.1 for a quick run
//   BENCH_CHECK_FILES, BENCH_CHECK_CONSTRAINTS, BENCH_CHECK_RUNS (5) override.
//   BENCH_CHECK_COMMON=1: the worst case for check --all's blob selection (docs/hooks.md "Speed"):
//   the first constraint needs a literal every file holds (`\breturn\s+zzz`), so every blob is read.
// The repository is generated with git fast-import and only its index is populated (check --all
// reads index content), so generating 100,000 files never touches the working tree.
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
  writeIndex,
} from './lib/common.mjs';

const FILES = size('BENCH_CHECK_FILES', 100_000, 100);
const CONSTRAINTS = Number(process.env.BENCH_CHECK_CONSTRAINTS ?? 100);
const RUNS = runs('BENCH_CHECK_RUNS', 5);
const COMMON = process.env.BENCH_CHECK_COMMON === '1';
const patterns = Array.from({ length: CONSTRAINTS }, (_, i) => (COMMON && i === 0 ? '\\breturn\\s+zzz' : `\\bforbidden_call_${i}\\(`));
const relOf = (i) => `src/m${i % 100}/d${Math.floor(i / 100) % 100}/f${i}.js`;

function fileText(n) {
  const lines = [];
  let len = 0;
  for (let i = 0; len < 1000; i += 1) {
    const l =
      n % 1000 === 7 && i === 3
        ? `  forbidden_call_${n % CONSTRAINTS}(x); // violation`
        : `export function f${n}_${i}(a, b) { return a + b * ${i}; } // line ${i}`;
    lines.push(l);
    len += l.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

async function build(dir) {
  await fastImport(dir, async (write) => {
    await write('commit refs/heads/main\ncommitter B <b@example.com> 1700000000 +0000\ndata 4\nbase\n');
    for (let i = 0; i < FILES; i += 1) {
      const t = Buffer.from(fileText(i));
      await write(`M 100644 inline ${relOf(i)}\ndata ${t.length}\n`);
      await write(t);
      await write('\n');
    }
  });
  git(dir, ['read-tree', 'HEAD']); // the index, without checking 100,000 files out
  writeIndex(
    dir,
    patterns.map((p, i) => constraintEntry(i, p)),
  );
}

const key = `checkall-f${FILES}-c${CONSTRAINTS}${COMMON ? '-common' : ''}`;
const cache = await cachedRepo(key, build);
const root = cache.dir;
printParams(`findings check --all: ${FILES} tracked files x ${CONSTRAINTS} active constraints`, {
  files: FILES,
  constraints: CONSTRAINTS,
  ...(COMMON ? { variant: 'a literal in every file' } : {}),
  runs: RUNS,
  repo: cache.built ? `generated in ${fmt(cache.ms)} ms (${key})` : `cached (${key})`,
});

const check = () => timeOnce(process.execPath, [BIN, 'check', '--all', '--json'], { cwd: root, okStatus: [0, 1] });
const grep = () =>
  timeOnce('git', ['grep', '--cached', '-I', '-P', '-l', ...patterns.flatMap((p) => ['-e', p]), '--', 'src/'], {
    cwd: root,
    okStatus: [0, 1],
  });

// Sanity: both sides flag the same number of files.
const grepFiles = String(grep().stdout).split('\n').filter(Boolean).length;
const checkOut = check();
let checkFiles = null;
try {
  const j = JSON.parse(String(checkOut.stdout));
  const list = Array.isArray(j) ? j : (j.diagnostics ?? j.violations ?? []);
  checkFiles = new Set(list.map((d) => d.file ?? d.path)).size;
} catch {
  checkFiles = 'unparsed';
}
const r = paired(RUNS, [grep], check);
const ratio = r.subject / r.floor;
const pass = ratio <= 2;
console.log(`files flagged: git grep ${grepFiles}, check --all ${checkFiles} (exit ${checkOut.status})`);
console.log(`medians of ${RUNS} paired runs (ms); load1 during runs ${r.load1.min}..${r.load1.max}`);
console.log('| findings check --all | git grep --cached -P | ratio | paired ratio | target |');
console.log('| ---: | ---: | ---: | ---: | --- |');
console.log(
  `| ${fmt(r.subject)} | ${fmt(r.floor)} | ${fmt(ratio, 2)} | ${fmt(r.pairedRatio, 2)} | <= 2x git grep -P: ${pass ? 'met' : 'MISSED'} |`,
);
emitResult('check-all', { files: FILES, constraints: CONSTRAINTS, runs: RUNS, grepFiles, checkFiles }, [
  {
    row: `check --all (${FILES} files x ${CONSTRAINTS} constraints)`,
    figure: r.subject,
    unit: 'ms',
    floor: r.floor,
    floorLabel: 'git grep --cached -P',
    ratio,
    target: '<= 2x floor',
    pass,
    load: load(),
  },
]);
