#!/usr/bin/env node
// Review ledger benchmark (docs/review.md): folding 10,000 events and the pre-push gate over a
// repository with 1,000 task ledgers, each budgeted at 200 ms. Runs against dist/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { planPass, planResolutions, planWaiver } from '../dist/src/review/actions.js';
import { parseLedger } from '../dist/src/review/events.js';
import { foldEvents, readAllLedgers } from '../dist/src/review/ledger.js';
import { planFiling } from '../dist/src/review/producer.js';
import { appendText } from '../dist/src/review/store.js';
import { reviewPushGate } from '../dist/src/review/gate.js';
import { commitFiles } from '../dist/src/repo-files.js';

const BUDGET_MS = 200;
const AT = '2026-01-01T00:00:00Z';
const SHA = 'c'.repeat(40);

/** A task's ledger: `rounds` rounds of `perRound` findings, most resolved, verified or waived. */
function ledgerEvents(task, rounds, perRound) {
  const events = [];
  let findings = [];
  for (let r = 0; r < rounds; r += 1) {
    const plan = planFiling({
      task,
      origin: r % 2 ? 'pm' : 'qa',
      taskFile: null,
      source: 'bench',
      elementLines: [],
      issues: [],
      actor: 'qa@x.io',
      at: AT,
      existing: findings,
      findings: Array.from({ length: perRound }, (_, i) => ({
        file: `src/m${i}.ts`,
        line: i + 1,
        severity: i % 4 === 0 ? 'nit' : 'major',
        expected: `expected ${r}.${i}`,
        actual: `actual ${r}.${i}`,
        fix: 'change it',
      })),
    });
    events.push(...plan.events);
    findings = foldEvents(events);
  }
  const open = findings.filter((f) => f.status === 'open');
  const toResolve = open.filter((f, i) => f.severity !== 'nit' && i % 3 !== 1);
  events.push(
    ...planResolutions(
      task,
      toResolve.map((f) => ({ input: f.id, rev: 'HEAD', commit: SHA, note: 'fixed' })),
      findings,
      [],
      'dev@x.io',
      AT,
    ).events,
  );
  findings = foldEvents(events);
  events.push(...planPass(task, 'qa', findings, 'qa@x.io', AT).events);
  for (const f of findings.filter((g) => g.severity === 'nit' && g.status === 'open')) {
    events.push(...planWaiver(task, f.id, 'cosmetic, tracked elsewhere', findings, [], { auditor: ['aud@x.io'] }, 'aud@x.io', AT).events);
  }
  return events;
}

function time(fn, runs = 7) {
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return samples.sort((a, b) => a - b)[Math.floor(runs / 2)];
}
async function timeAsync(fn, runs = 7) {
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return samples.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

const rows = [];
const row = (name, size, ms, budget) => rows.push({ name, size, ms, budget });

// 1. Fold a 10,000-event ledger.
let events = ledgerEvents('T-1', 1, 1);
for (let rounds = 1; events.length < 10_000; rounds += 1) events = ledgerEvents('T-1', rounds, 10);
events = events.slice(0, 10_000);
const shuffled = [...events].reverse();
row(
  'foldEvents',
  `${events.length} events`,
  time(() => foldEvents(shuffled)),
  BUDGET_MS,
);
const text = appendText('', events);
row(
  'parseLedger + foldEvents (schema per line)',
  `${events.length} lines`,
  time(() => foldEvents(parseLedger(text, '.agents/reviews/T-1.jsonl', 'T-1').events)),
  null,
);

// 2. The pre-push gate in a repository with 1,000 task ledgers.
const root = mkdtempSync(path.join(tmpdir(), 'findings-review-bench-'));
try {
  const git = (...args) =>
    execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } }).toString(
      'utf8',
    );
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'b@x.io');
  git('config', 'user.name', 'Bench');
  mkdirSync(path.join(root, '.agents/reviews'), { recursive: true });
  mkdirSync(path.join(root, '.agents/tasks'), { recursive: true });
  const small = ledgerEvents('T-0000', 2, 5);
  for (let i = 0; i < 1000; i += 1) {
    const task = `T-${String(i).padStart(4, '0')}`;
    const ev = small.map((e) => ({ ...e, task }));
    writeFileSync(path.join(root, `.agents/reviews/${task}.jsonl`), appendText('', ev));
    writeFileSync(path.join(root, `.agents/tasks/${task}.json`), JSON.stringify({ id: task, criteria: [{ id: 'AC1', text: 'works' }] }));
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'ledgers');
  const commit = git('rev-parse', 'HEAD').trim();
  const gateMs = await timeAsync(() => reviewPushGate({ root, commit, localRef: 'refs/heads/feature/T-0500' }));
  const open = (await reviewPushGate({ root, commit, localRef: 'refs/heads/feature/T-0500' })).length;
  row(`reviewPushGate (one branch, ${open} open findings)`, '1000 ledgers + 1000 task files', gateMs, BUDGET_MS);
  const allMs = await timeAsync(() => readAllLedgers(commitFiles(root, commit)), 3);
  row('readAllLedgers at a commit', `1000 ledgers, ${1000 * small.length} events`, allMs, null);
} finally {
  rmSync(root, { recursive: true, force: true });
}

console.log('| measure | size | median ms | budget |');
console.log('| --- | --- | ---: | --- |');
let failed = false;
for (const r of rows) {
  const verdict = r.budget === null ? '—' : r.ms < r.budget ? `< ${r.budget} ok` : `< ${r.budget} OVER`;
  if (r.budget !== null && r.ms >= r.budget) failed = true;
  console.log(`| ${r.name} | ${r.size} | ${r.ms.toFixed(1)} | ${verdict} |`);
}
if (failed) process.exitCode = 1;
