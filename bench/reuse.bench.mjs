// Reuse benchmark (docs/reuse.md): `findings pull` of a source with 10,000 entries into a registry of
// 10,000 (2,000 of them local entries with the same dedup_key, which must win), run as the real
// bin in a child process, both repositories real git repositories on disk.
// Target on this 2-core machine: the first pull under 3 s. Also: a no-op re-pull of the same
// commit, a re-pull after the source rewords 1,000 and retires 1,000 entries, `pull --check`,
// and `explain` of one pulled finding in the 20,000-line registry.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'bin', 'findings.js');
const N = 10_000;
const OVERLAP = 2_000;
const SHAPES = ['plan-shape', 'classifier', 'enum-parser', 'struct-change', 'pattern-matcher', 'validation-gap', 'test-gap', 'docs-drift'];
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  NO_COLOR: '1',
};

function entry(repo, i, over = {}) {
  const shape = SHAPES[i % SHAPES.length];
  const pattern = `Finding ${i} of ${repo} about ${shape} work in module ${i % 97}`;
  return {
    id: `f-${repo}-${String(i).padStart(6, '0')}`,
    version: 1,
    tier: 'local',
    source: { repo: `bench/${repo}`, session: '2026-01-01', file: `.agents/council/review-${i % 50}.md`, skill: 'review' },
    date: '2026-01-01',
    severity: 'major',
    category: shape,
    pattern,
    detection_question: `Does change ${i} re-check the ${shape} failure?`,
    checklist_item: `Add a regression test for case ${i}.`,
    applicable_languages: ['typescript'],
    applicable_when: [shape],
    status: 'active',
    superseded_by: null,
    dedup_key: `${shape}|${pattern.toLowerCase().split(/\s+/).join('-')}|${shape}`,
    hit_count: 0,
    last_cited: null,
    ttl_days: 30,
    confidence: 'high',
    ...over,
  };
}

function repo(name, lines) {
  const root = mkdtempSync(path.join(tmpdir(), `findings-bench-${name}-`));
  const git = (...args) => execFileSync('git', args, { cwd: root, env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  mkdirSync(path.join(root, '.agents/findings'), { recursive: true });
  writeFileSync(path.join(root, '.agents/findings/registry.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', name);
  return { root, git };
}

function time(cwd, args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env: GIT_ENV, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { ms, code: r.status, out: (r.stdout + r.stderr).trim().split('\n').pop() };
}

const a = repo(
  'a',
  Array.from({ length: N }, (_, i) => entry('a', i)),
);
// B: 10,000 local entries; the first OVERLAP share a dedup_key with A's.
const b = repo(
  'b',
  Array.from({ length: N }, (_, i) =>
    i < OVERLAP ? { ...entry('a', i), id: `f-b-${String(i).padStart(6, '0')}`, checklist_item: 'B wording' } : entry('b', i),
  ),
);

const rows = [];
const run = (label, cwd, args, target) => {
  const r = time(cwd, args);
  rows.push({ step: label, ms: r.ms.toFixed(0), exit: r.code, target: target ?? '', result: r.out.slice(0, 90) });
  return r;
};

run(`first pull (${N} into ${N}, ${OVERLAP} local wins)`, b.root, ['pull', a.root], '< 3000 ms');
run('re-pull, same commit (no-op)', b.root, ['pull', a.root]);
const text = readFileSync(path.join(a.root, '.agents/findings/registry.jsonl'), 'utf8').trimEnd().split('\n');
const changed = text.map((l, i) => {
  if (i >= OVERLAP && i < OVERLAP + 1000) return JSON.stringify({ ...JSON.parse(l), checklist_item: `Reworded ${i}` });
  if (i >= OVERLAP + 1000 && i < OVERLAP + 2000) return JSON.stringify({ ...JSON.parse(l), status: 'retired' });
  return l;
});
writeFileSync(path.join(a.root, '.agents/findings/registry.jsonl'), `${changed.join('\n')}\n`);
a.git('commit', '-q', '-am', 'reword and retire');
run('pull --check (source moved)', b.root, ['pull', '--check'], 'exit 1');
run('re-pull: 1,000 reworded, 1,000 retired', b.root, ['pull', a.root], '< 3000 ms');
run('explain one pulled finding (20,000-line registry)', b.root, ['explain', `f-a-${String(OVERLAP + 5).padStart(6, '0')}`]);

console.table(rows);
const lines = readFileSync(path.join(b.root, '.agents/findings/registry.jsonl'), 'utf8').trimEnd().split('\n').length;
console.log(`B's registry: ${lines} lines; sources.json ${readFileSync(path.join(b.root, '.agents/findings/sources.json')).length} bytes`);
rmSync(a.root, { recursive: true, force: true });
rmSync(b.root, { recursive: true, force: true });
