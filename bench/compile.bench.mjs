#!/usr/bin/env node
// Compile benchmark (issue 3): a generated repository with 10,000 findings, 1,000 of them
// mechanical artifacts with two fixtures each. Targets on a 2-core machine: cold compile < 3 s,
// no-op recompile < 1 s, peak memory < 500 MB. Each phase runs in a fresh process (module load
// included), so the figures are what a user sees.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const TOTAL = Number(process.env.BENCH_FINDINGS ?? 10_000);
const MECHANICAL = Math.round(TOTAL / 10);

if (process.argv[2] === '--phase') {
  const [, , , phase, root] = process.argv;
  const { runCompile } = await import('../dist/compiler/run.js');
  const t0 = performance.now();
  const r = await runCompile(root, { check: phase === 'check' });
  const ms = performance.now() - t0;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ ms, rssMb, changes: r.changes.length, errors: r.diagnostics.filter((d) => d.severity === 'error').length, warnings: r.diagnostics.filter((d) => d.severity === 'warning').length }));
  process.exit(0);
}

function generate(root) {
  const lines = [];
  const id = (i) => `f-2026-01-01-${String(i).padStart(5, '0')}`;
  for (let i = 0; i < TOTAL; i += 1) {
    const pattern = `Generated finding number ${i} about a recurring mistake in module ${i % 97}`;
    lines.push(
      JSON.stringify({
        id: id(i), version: 1, tier: 'local', source: { repo: 'bench/repo', session: '2026-01-01', file: `.agents/council/s-${i % 50}.md`, skill: 'post-mortem' },
        date: '2026-01-01', severity: i % 3 === 0 ? 'critical' : 'significant', category: 'validation-gap', pattern,
        detection_question: `Does change ${i} repeat the mistake?`, checklist_item: `Check module ${i % 97} for mistake ${i}.`,
        applicable_languages: ['typescript'], applicable_when: ['validation-gap'], status: 'active', superseded_by: null,
        dedup_key: `validation-gap|generated-finding-number-${i}|validation-gap`, hit_count: 0, last_cited: null, ttl_days: 30, confidence: 'high',
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
      '---', `id: "${fid}"`, 'type: "finding"', 'version: 1', 'date: "2026-01-01"', 'source_skill: "post-mortem"', `source_artifact: ".agents/council/s-${i % 50}.md"`,
      `title: "No eval in module ${i}"`, `summary: "eval() crept into module ${i}"`, `pattern: "Generated finding number ${i} about a recurring mistake in module ${i % 97}"`,
      `detection_question: "Does the change call eval?"`, `checklist_item: "Replace eval with a parser."`, 'severity: "significant"', 'detectability: "mechanical"', 'status: "active"',
      'compiler_targets: ["plan","pre-mortem","constraint"]', 'scope_tags: ["validation-gap"]', `dedup_key: "validation-gap|generated-finding-number-${i}|validation-gap"`,
      'applicable_when: ["validation-gap"]', 'applicable_languages: ["typescript"]', 'tier: "local"', 'compiler:', '  applies_to:', '    scope: "files"', '    path_globs: ["src/**/*.ts"]',
      '  detector:', '    kind: "regex"', `    pattern: "\\\\beval\\\\("`, '  evidence:', `    positive_refs: ["${fx}/bad.ts"]`, `    negative_control_refs: ["${fx}/good.ts"]`, '---',
      `# Finding: No eval in module ${i}`, '', 'Body text.', '',
    ].join('\n');
    writeFileSync(path.join(root, `.agents/findings/${fid}.md`), fm);
  }
}

function phase(name, root) {
  const r = spawnSync(process.execPath, ['--enable-experimental-regexp-engine-on-excessive-backtracks', fileURLToPath(import.meta.url), '--phase', name, root], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
  const wall = JSON.parse(r.stdout);
  return wall;
}

// Under bench/.out (git-ignored) rather than os.tmpdir(): on this machine /tmp creates files
// ~6x slower than the work volume, which would measure the folder, not the compiler.
const outDir = path.join(here, '.out');
mkdirSync(outDir, { recursive: true });
const root = process.env.BENCH_ROOT ?? mkdtempSync(path.join(outDir, 'compile-'));
try {
  execFileSync('git', ['init', '-q', root]);
  const g0 = performance.now();
  generate(root);
  const genMs = performance.now() - g0;
  const cold = phase('cold', root);
  const noop = phase('noop', root);
  const check = phase('check', root);
  const rows = [
    ['phase', 'ms', 'peak RSS MB', 'changes', 'target'],
    ['generate', genMs.toFixed(0), '-', '-', '-'],
    ['cold compile', cold.ms.toFixed(0), cold.rssMb.toFixed(0), String(cold.changes), '< 3000 ms, < 500 MB'],
    ['no-op recompile', noop.ms.toFixed(0), noop.rssMb.toFixed(0), String(noop.changes), '< 1000 ms, 0 changes'],
    ['--check', check.ms.toFixed(0), check.rssMb.toFixed(0), String(check.changes), '0 changes'],
  ];
  console.log(`findings: ${TOTAL} (${MECHANICAL} mechanical, 2 fixtures each); cold warnings ${cold.warnings}, errors ${cold.errors}`);
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(`| ${r.map((v, c) => v.padEnd(w[c])).join(' | ')} |`);
} finally {
  if (!process.env.BENCH_ROOT) rmSync(root, { recursive: true, force: true });
}
