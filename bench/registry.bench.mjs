// Registry benchmark (docs/registry.md): `findings validate` and `findings rank` on generated registries
// of 1,000 / 10,000 / 100,000 lines, each run as the real bin in a child process.
// Targets on a 2-core machine: 100k validated < 3 s, peak RSS < 400 MB, ≤ 12× time per 10× lines.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'bin', 'findings.js');
const SIZES = [1_000, 10_000, 100_000];
const SHAPES = ['plan-shape', 'classifier', 'enum-parser', 'struct-change', 'pattern-matcher', 'validation-gap', 'test-gap', 'docs-drift'];
const SEVERITIES = ['critical', 'high', 'significant', 'medium', 'low', 'nit'];
const REPEAT = 3;

function line(i) {
  const shape = SHAPES[i % SHAPES.length];
  const category = SHAPES[(i * 7) % SHAPES.length];
  const pattern = `Generated finding number ${i} about ${category} work in module ${i % 97}`;
  const slug = pattern.toLowerCase().split(/\s+/).join('-');
  return JSON.stringify({
    id: `f-2026-01-01-${String(i).padStart(6, '0')}`,
    version: 1,
    tier: 'local',
    source: { repo: 'bench/repo', session: '2026-01-01', file: `.agents/council/review-${i % 50}.md`, skill: 'review' },
    date: '2026-01-01',
    severity: SEVERITIES[i % SEVERITIES.length],
    category,
    pattern,
    detection_question: `Does change ${i} re-check the ${category} failure described in finding ${i}?`,
    checklist_item: `Add a regression test for the ${category} case ${i} and cite the finding id in the review.`,
    applicable_languages: i % 2 ? ['typescript', 'markdown'] : ['go', 'shell'],
    applicable_when: [shape, category],
    status: i % 10 === 0 ? 'retired' : 'active',
    superseded_by: null,
    dedup_key: `${category}|${slug}|${shape}`,
    hit_count: i % 5,
    last_cited: i % 3 ? null : '2026-02-01T00:00:00Z',
    ttl_days: 30,
    confidence: 'high',
  });
}

function makeRegistry(n) {
  const root = mkdtempSync(path.join(tmpdir(), `findings-bench-${n}-`));
  mkdirSync(path.join(root, '.agents/findings'), { recursive: true });
  const lines = new Array(n);
  for (let i = 0; i < n; i += 1) lines[i] = line(i);
  writeFileSync(path.join(root, '.agents/findings/registry.jsonl'), `${lines.join('\n')}\n`);
  return root;
}

const hasTime = existsSync('/usr/bin/time');

/** Wall time (ms) and peak RSS (MB) of one run of the bin. */
function measure(args, cwd) {
  if (hasTime) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync('/usr/bin/time', ['-v', process.execPath, BIN, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
    return { ms, rssMb: m ? Number(m[1]) / 1024 : NaN, status: r.status };
  }
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { ms, rssMb: NaN, status: r.status };
}

function best(args, cwd) {
  let out = null;
  for (let i = 0; i < REPEAT; i += 1) {
    const m = measure(args, cwd);
    if (!out || m.ms < out.ms) out = { ...m, rssMb: Math.max(m.rssMb, out?.rssMb ?? 0) };
  }
  return out;
}

if (!existsSync(path.join(here, '..', 'dist', 'src', 'cli', 'main.js')))
  execFileSync('npx', ['tsc', '-p', path.join(here, '..')], { stdio: 'inherit' });

const rows = [];
for (const n of SIZES) {
  const root = makeRegistry(n);
  try {
    const v = best(['validate', '--root', root], root);
    if (v.status !== 0) throw new Error(`validate exited ${v.status} on the generated ${n}-line registry`);
    const r = best(['rank', '--root', root, '--when', 'test-gap', '--lang', 'go', '--text', 'regression test module', '--json'], root);
    if (r.status !== 0) throw new Error(`rank exited ${r.status}`);
    rows.push({ n, v, r });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
console.log(`best of ${REPEAT} runs; peak RSS via ${hasTime ? '/usr/bin/time -v' : '(unavailable)'}`);
console.log('| lines   | validate ms | validate MB | ×time | rank ms | rank MB | ×time |');
console.log('| ------- | ----------- | ----------- | ----- | ------- | ------- | ----- |');
rows.forEach((row, i) => {
  const prev = rows[i - 1];
  const gv = prev ? fmt(row.v.ms / prev.v.ms, 1) : '';
  const gr = prev ? fmt(row.r.ms / prev.r.ms, 1) : '';
  console.log(
    `| ${String(row.n).padStart(7)} | ${fmt(row.v.ms).padStart(11)} | ${fmt(row.v.rssMb).padStart(11)} ` +
      `| ${gv.padStart(5)} | ${fmt(row.r.ms).padStart(7)} | ${fmt(row.r.rssMb).padStart(7)} | ${gr.padStart(5)} |`,
  );
});
const big = rows[rows.length - 1];
const growth = rows.slice(1).map((row, i) => row.v.ms / rows[i].v.ms);
const ok = big.v.ms < 3000 && !(big.v.rssMb >= 400) && growth.every((g) => g <= 12);
console.log(
  `targets: 100k validate < 3000 ms (${fmt(big.v.ms)}), peak < 400 MB (${fmt(big.v.rssMb)}),` +
    ` growth ≤ 12× (${growth.map((g) => fmt(g, 1)).join(', ')}): ${ok ? 'met' : 'NOT met'}`,
);
