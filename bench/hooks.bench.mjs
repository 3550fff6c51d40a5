#!/usr/bin/env node
// `npm run bench`: `findings hook pre-commit` on 500 (and 5,000) staged ~2 KB files in a
// 5,000-file repository with 100 active constraints, against the floor measured in the same
// run: `node -e 0` plus `git grep --cached -P` of the same 100 patterns (issue 4).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'findings.js');
const RUNS = 7;
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.com', NO_COLOR: '1' };
for (const k of ['GIT_INDEX_FILE', 'GIT_DIR', 'GIT_WORK_TREE', 'FINDINGS_SKIP', 'HUSKY']) delete env[k];

const patterns = Array.from({ length: 100 }, (_, i) => `\\bforbidden_call_${i}\\(`);

function fileText(n) {
  const lines = [];
  for (let i = 0; lines.join('\n').length < 2000; i += 1) lines.push(`export function f${n}_${i}(a, b) { return a + b * ${i}; } // line ${i}`);
  return `${lines.join('\n')}\n`;
}

function makeRepo(total) {
  const root = mkdtempSync(path.join(tmpdir(), 'findings-bench-'));
  const git = (...args) => execFileSync('git', ['-c', 'gc.auto=0', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  for (let i = 0; i < total; i += 1) {
    const dir = path.join(root, 'src', `d${i % 50}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `f${i}.js`), fileText(i));
  }
  const constraints = patterns.map((pattern, i) => ({
    id: `c-bench-${String(i).padStart(3, '0')}`, finding_id: `bench-${i}`, title: `bench ${i}`, status: 'active', enforcement_mode: 'block',
    source_artifact: `.agents/findings/bench-${i}.md`, review_file: null, compiled_at: '2026-01-01',
    applies_to: { scope: 'files', path_globs: ['src/**/*.js'] }, detector: { kind: 'regex', pattern }, evidence: { positive_refs: ['p'], negative_control_refs: ['n'] },
  }));
  mkdirSync(path.join(root, '.agents', 'constraints'), { recursive: true });
  writeFileSync(path.join(root, '.agents', 'constraints', 'index.json'), JSON.stringify({ version: 1, constraints }, null, 2));
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'base');
  return { root, git };
}

function stage(repo, count) {
  const paths = [];
  for (let i = 0; i < count; i += 1) {
    const rel = `src/d${i % 50}/f${i}.js`;
    writeFileSync(path.join(repo.root, rel), `${fileText(i)}// edited\n`);
    paths.push(rel);
  }
  repo.git('add', '-A');
  return paths;
}

function time(cmd, args, cwd) {
  const times = [];
  let status = 0;
  for (let r = 0; r < RUNS; r += 1) {
    const t = process.hrtime.bigint();
    const res = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    status = res.status ?? -1;
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], status };
}

const repo = makeRepo(5000);
const rows = [];
try {
  for (const staged of [500, 5000]) {
    const paths = stage(repo, staged);
    const hook = time(process.execPath, [BIN, 'hook', 'pre-commit'], repo.root);
    if (hook.status !== 0) throw new Error(`hook exited ${hook.status}`);
    const node = time(process.execPath, ['-e', '0'], repo.root);
    // The floor greps the same staged files (all of src/ when every file is staged).
    const grepArgs = ['grep', '--cached', '-I', '-P', ...patterns.flatMap((p) => ['-e', p]), '--', ...(staged < 5000 ? paths : ['src/'])];
    const grep = time('git', grepArgs, repo.root);
    const floor = node.median + grep.median;
    rows.push({ staged, hook: hook.median, node: node.median, grep: grep.median, floor, ratio: hook.median / floor });
    repo.git('commit', '-q', '--no-verify', '-m', `edit ${staged}`);
  }
} finally {
  rmSync(repo.root, { recursive: true, force: true, maxRetries: 5 });
}
console.log('5,000-file repository, 100 active constraints, median of', RUNS, 'runs (ms)');
console.log('| staged files | findings hook pre-commit | node -e 0 | git grep --cached -P | floor (sum) | ratio | target |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const r of rows) {
  console.log(`| ${r.staged} | ${r.hook.toFixed(0)} | ${r.node.toFixed(0)} | ${r.grep.toFixed(0)} | ${r.floor.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.staged === 500 ? (r.hook < 300 ? '< 300 ms: met' : '< 300 ms: MISSED') : 'report only'} |`);
}
