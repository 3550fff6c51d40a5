#!/usr/bin/env node
// `findings compile` on a generated repository of FINDINGS (10,000) registry entries, a tenth of
// them mechanical artifacts with a bad and a good fixture each. Through the real bin (module load
// included), each run in a fresh process, peak RSS from /usr/bin/time. Floor, in the same run:
// a fresh node process that reads every file under .agents/ (bench/lib/read-all.mjs).
// Targets: cold <= 3 s; no-op <= 1.5 x read-all; peak <= 300 MB.
//   node --expose-gc bench/compile.bench.mjs          BENCH_SCALE=0.1 for a quick run
//   BENCH_FINDINGS, BENCH_COMPILE_COLD_RUNS (3), BENCH_COMPILE_RUNS (5) override.
//   --prepare-only prints the generated repository's path (inputs only, for profiling) and exits.
import path from 'node:path';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { BENCH_DIR, BIN, cachedRepo, emitResult, fmt, git, load, paired, printParams, runs, size, timeOnce } from './lib/common.mjs';

const TOTAL = size('BENCH_FINDINGS', 10_000, 20);
const MECHANICAL = Math.round(TOTAL / 10);
const COLD_RUNS = runs('BENCH_COMPILE_COLD_RUNS', 3);
const RUNS = runs('BENCH_COMPILE_RUNS', 5);
const READ_ALL = path.join(BENCH_DIR, 'lib', 'read-all.mjs');

function generate(root) {
  const lines = [];
  const id = (i) => `f-2026-01-01-${String(i).padStart(5, '0')}`;
  for (let i = 0; i < TOTAL; i += 1) {
    const pattern = `Generated finding number ${i} about a recurring mistake in module ${i % 97}`;
    lines.push(
      JSON.stringify({
        id: id(i),
        version: 1,
        tier: 'local',
        source: { repo: 'bench/repo', session: '2026-01-01', file: `.agents/council/s-${i % 50}.md`, skill: 'post-mortem' },
        date: '2026-01-01',
        severity: i % 3 === 0 ? 'critical' : 'significant',
        category: 'validation-gap',
        pattern,
        detection_question: `Does change ${i} repeat the mistake?`,
        checklist_item: `Check module ${i % 97} for mistake ${i}.`,
        applicable_languages: ['typescript'],
        applicable_when: ['validation-gap'],
        status: 'active',
        superseded_by: null,
        dedup_key: `validation-gap|generated-finding-number-${i}|validation-gap`,
        hit_count: 0,
        last_cited: null,
        ttl_days: 30,
        confidence: 'high',
      }),
    );
  }
  mkdirSync(path.join(root, '.agents/findings'), { recursive: true });
  writeFileSync(path.join(root, '.agents/findings/registry.jsonl'), `${lines.join('\n')}\n`);
  for (let i = 0; i < MECHANICAL; i += 1) {
    const fid = id(i);
    const fx = `.agents/constraints/fixtures/${fid}`;
    mkdirSync(path.join(root, fx), { recursive: true });
    writeFileSync(path.join(root, fx, 'bad.ts'), `export const x${i} = eval("1 + ${i}");\n`);
    writeFileSync(path.join(root, fx, 'good.ts'), `export const x${i} = 1 + ${i};\n`);
    const fm = [
      '---',
      `id: "${fid}"`,
      'type: "finding"',
      'version: 1',
      'date: "2026-01-01"',
      'source_skill: "post-mortem"',
      `source_artifact: ".agents/council/s-${i % 50}.md"`,
      `title: "No eval in module ${i}"`,
      `summary: "eval() crept into module ${i}"`,
      `pattern: "Generated finding number ${i} about a recurring mistake in module ${i % 97}"`,
      `detection_question: "Does the change call eval?"`,
      `checklist_item: "Replace eval with a parser."`,
      'severity: "significant"',
      'detectability: "mechanical"',
      'status: "active"',
      'compiler_targets: ["plan","pre-mortem","constraint"]',
      'scope_tags: ["validation-gap"]',
      `dedup_key: "validation-gap|generated-finding-number-${i}|validation-gap"`,
      'applicable_when: ["validation-gap"]',
      'applicable_languages: ["typescript"]',
      'tier: "local"',
      'compiler:',
      '  applies_to:',
      '    scope: "files"',
      '    path_globs: ["src/**/*.ts"]',
      '  detector:',
      '    kind: "regex"',
      `    pattern: "\\\\beval\\\\("`,
      '  evidence:',
      `    positive_refs: ["${fx}/bad.ts"]`,
      `    negative_control_refs: ["${fx}/good.ts"]`,
      '---',
      `# Finding: No eval in module ${i}`,
      '',
      'Body text.',
      '',
    ].join('\n');
    writeFileSync(path.join(root, `.agents/findings/${fid}.md`), fm);
  }
}

const key = `compile-n${TOTAL}`;
const cache = await cachedRepo(key, (dir) => {
  git(dir, ['init', '-q', '-b', 'main']);
  generate(dir);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '--no-verify', '-m', 'inputs']);
});
const root = cache.dir;
if (process.argv.includes('--prepare-only')) {
  console.log(root);
  process.exit(0);
}
printParams(`findings compile: ${TOTAL} findings (${MECHANICAL} mechanical, 2 fixtures each)`, {
  findings: TOTAL,
  mechanical: MECHANICAL,
  coldRuns: COLD_RUNS,
  noopRuns: RUNS,
  repo: cache.built ? `generated in ${fmt(cache.ms)} ms (${key})` : `cached (${key})`,
});

// Back to the inputs only: no compiled output, and no memo in the git directory either (the
// parse memo and the compile-result memo, compiler/parse-cache.ts and compiler/result-memo.ts).
const pristine = (dir = root) => {
  git(dir, ['reset', '-q', '--hard', 'main']);
  git(dir, ['clean', '-q', '-f', '-d', '-x']);
  rmSync(path.join(dir, '.git', 'findings-compiler'), { recursive: true, force: true });
};

// A cold compile runs in a fresh clone of the inputs, as on a new checkout or in CI, and the clones
// are removed only after every run. Resetting one repository instead deletes the ~29,000 outputs
// of the run before it just before the next one creates them again, and on ext4 without a journal
// the kernel then skips every recently deleted inode while allocating each new one (perf:
// find_inode_bit -> recently_deleted, a third of the cold process), which no checkout pays.
// BENCH_COMPILE_COLD_RESET=1 measures the reset way.
const coldReset = process.env.BENCH_COMPILE_COLD_RESET === '1';
const clones = [];
let coldRoot = root;
const freshInputs = () => {
  if (coldReset) {
    pristine(root);
    return root;
  }
  const dir = `${root}.cold-${clones.length}`;
  rmSync(dir, { recursive: true, force: true });
  git(path.dirname(root), ['clone', '-q', '--no-hardlinks', root, dir]);
  clones.push(dir);
  return dir;
};
const compileAt = (dir) => () => timeOnce(process.execPath, [BIN, 'compile', '--root', dir], { cwd: dir, rss: true, okStatus: [0, 1] });
const readAllAt = (dir) => () => timeOnce(process.execPath, [READ_ALL, dir], { cwd: dir, rss: true });

const peaks = [];
const tracked = (thunk) => () => {
  const r = thunk();
  peaks.push(r.rssMb);
  return r;
};
let coldStatus = null;
const cold = paired(
  COLD_RUNS,
  [
    () => {
      coldRoot = freshInputs();
      return readAllAt(coldRoot)();
    },
  ],
  () => {
    const r = tracked(compileAt(coldRoot))();
    coldStatus = r.status;
    return r;
  },
);
// The no-op rows run where the last cold compile wrote its outputs.
const noopCompile = compileAt(coldRoot);
const noopReadAll = readAllAt(coldRoot);
const inputs = String(noopReadAll().stdout).trim();
// The first compile after one that wrote files compiles in full (it finds nothing to write and
// saves the compile-result memo); the ones after it are answered by the memo (docs/compiler.md "Speed").
const firstNoop = paired(1, [noopReadAll], tracked(noopCompile));
const noop = paired(RUNS, [noopReadAll], tracked(noopCompile));
const changes = timeOnce(process.execPath, [BIN, 'compile', '--check', '--root', coldRoot], { cwd: coldRoot, okStatus: [0, 1] });
const peak = Math.max(...peaks);
const readAllRss = noopReadAll().rssMb;
pristine();
for (const dir of clones) rmSync(dir, { recursive: true, force: true });

const coldPass = cold.subject <= 3000;
const noopRatio = noop.subject / noop.floor;
const noopPass = noopRatio <= 1.5;
const peakPass = peak <= 300;
console.log(
  `cold exit ${coldStatus}; files/bytes read by the floor after a compile: ${inputs}; compile --check afterwards exits ${changes.status} (0 = no-op is clean)`,
);
console.log(`medians (ms); load1 during cold ${cold.load1.min}..${cold.load1.max}, during no-op ${noop.load1.min}..${noop.load1.max}`);
console.log('| phase | findings compile | read every input | ratio | peak RSS MB | target |');
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
console.log(
  `| cold (median of ${COLD_RUNS}) | ${fmt(cold.subject)} | ${fmt(cold.floor)} ` +
    `| ${fmt(cold.subject / cold.floor, 2)} | | <= 3000 ms: ${coldPass ? 'met' : 'MISSED'} |`,
);
const firstRatio = fmt(firstNoop.subject / firstNoop.floor, 2);
console.log(
  `| first no-op after the cold compile (full compile, 1 run) | ${fmt(firstNoop.subject)} | ${fmt(firstNoop.floor)} | ${firstRatio} | | (not a target) |`,
);
console.log(
  `| no-op (median of ${RUNS}) | ${fmt(noop.subject)} | ${fmt(noop.floor)} | ${fmt(noopRatio, 2)} | | <= 1.5x read-all: ${noopPass ? 'met' : 'MISSED'} |`,
);
console.log(`| peak (all runs) | | | | ${fmt(peak)} | <= 300 MB: ${peakPass ? 'met' : 'MISSED'} |`);
const l = load();
emitResult('compile', { findings: TOTAL, mechanical: MECHANICAL, coldRuns: COLD_RUNS, noopRuns: RUNS }, [
  {
    row: `compile cold (${TOTAL} findings)`,
    figure: cold.subject,
    unit: 'ms',
    floor: cold.floor,
    floorLabel: 'read every input',
    ratio: cold.subject / cold.floor,
    target: '<= 3000 ms',
    pass: coldPass,
    load: l,
  },
  {
    row: `compile no-op (${TOTAL} findings)`,
    figure: noop.subject,
    unit: 'ms',
    floor: noop.floor,
    floorLabel: 'read every input',
    ratio: noopRatio,
    target: '<= 1.5x floor',
    pass: noopPass,
    load: l,
  },
  {
    row: `compile peak RSS (${TOTAL} findings)`,
    figure: peak,
    unit: 'MB',
    floor: readAllRss,
    floorLabel: 'read-all RSS',
    ratio: null,
    target: '<= 300 MB',
    pass: peakPass,
    load: l,
  },
]);
