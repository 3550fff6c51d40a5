#!/usr/bin/env node
// Lifecycle benchmark (issue 6): `findings constraint measure` over a generated history of
// 1,000 commits with 20 shadow constraints. Target on this 2-core machine: < 10 s wall through
// the real bin (module load included). A second row changes up to 10 files per commit.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'bin', 'findings.js');
const COMMITS = Number(process.env.BENCH_COMMITS ?? 1000);
const CONSTRAINTS = 20;
const FILES = 300;

function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const markers = Array.from({ length: CONSTRAINTS }, (_, i) => `forbidden${i}`);

function fileText(rand) {
  const lines = [];
  const n = 30 + Math.floor(rand() * 40); // ~1.5–3 KB
  for (let i = 0; i < n; i += 1) {
    const r = rand();
    if (r < 0.04) lines.push(`  ${markers[Math.floor(rand() * markers.length)]}(value${i}); // flagged`);
    else lines.push(`  const value${i} = compute(${Math.floor(rand() * 100000)}, "some text to make the line longer");`);
  }
  return `${lines.join('\n')}\n`;
}

function generate(root, commits, perCommit) {
  const rand = prng(7);
  const paths = Array.from({ length: FILES }, (_, i) => `src/pkg${i % 17}/module${i}.ts`);
  const chunks = [];
  const push = (s) => chunks.push(Buffer.from(s));
  for (let c = 1; c <= commits; c += 1) {
    push(`commit refs/heads/main\nmark :${c}\ncommitter B <b@example.com> ${1_700_000_000 + c * 60} +0000\ndata 9\ncommit ${String(c % 10)}\n`);
    if (c > 1) push(`from :${c - 1}\n`);
    const chosen = c === 1 ? paths : Array.from({ length: 1 + Math.floor(rand() * perCommit) }, () => paths[Math.floor(rand() * paths.length)]);
    for (const p of new Set(chosen)) {
      const text = Buffer.from(fileText(rand));
      push(`M 100644 inline ${p}\ndata ${text.length}\n`);
      chunks.push(text);
      push('\n');
    }
  }
  push('done\n');
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: root, input: Buffer.concat(chunks) });
  const constraints = markers.map((m, i) => ({
    id: `c-bench-${String(i).padStart(2, '0')}`,
    finding_id: `bench-${i}`,
    title: `No ${m}`,
    status: 'shadow',
    enforcement_mode: 'warn',
    source_artifact: `.agents/findings/bench-${i}.md`,
    review_file: null,
    compiled_at: '2026-01-01',
    applies_to: { scope: 'files', path_globs: i % 2 === 0 ? ['src/**/*.ts'] : [`src/pkg${i % 17}/**`, 'src/pkg1/**'] },
    detector: { kind: 'regex', pattern: `\\b${m}\\(` },
    evidence: { positive_refs: ['p'], negative_control_refs: ['n'] },
  }));
  mkdirSync(path.join(root, '.agents/constraints'), { recursive: true });
  writeFileSync(path.join(root, '.agents/constraints/index.json'), `${JSON.stringify({ version: 1, constraints }, null, 2)}\n`);
}

function timeBin(args, cwd) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return { ms, stdout: r.stdout };
}

const rows = [];
for (const [commits, perCommit] of [[COMMITS, 3], [COMMITS, 10]]) {
  const root = mkdtempSync(path.join(tmpdir(), 'findings-bench-lifecycle-'));
  try {
    generate(root, commits, perCommit);
    const floor = timeBin(['--version'], root);
    const cold = timeBin(['constraint', 'measure', '--json'], root);
    const again = timeBin(['constraint', 'measure', '--json'], root);
    const out = JSON.parse(cold.stdout);
    const samples = out.measured.reduce((n, m) => n + m.summary.samples, 0);
    const hits = out.measured.reduce((n, m) => n + m.summary.hits, 0);
    rows.push({ case: `${commits} commits × ${CONSTRAINTS} constraints, ≤${perCommit} files/commit`, samples, hits, 'bin floor (ms)': Math.round(floor.ms), 'measure (ms)': Math.round(cold.ms), 're-measure (ms)': Math.round(again.ms), 'target (ms)': 10_000, ok: cold.ms < 10_000 ? 'yes' : 'NO' });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
console.table(rows);
