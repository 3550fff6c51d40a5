// Shared helpers of the speed benchmarks (docs: CONTRIBUTING.md "Benchmarks"): sizes from the
// environment, paired timing, peak memory of a child, generated repositories cached by their
// parameters, and the machine-readable BENCH_RESULT line that bench/run.mjs collects.
//
// Timings here are benchmarks, never assertions: the machine may be shared, so every figure is
// printed with the load average and next to a floor measured in the same run — the ratio is
// what is compared with the target.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(BENCH_DIR, '..', 'bin', 'findings.js');
/** Generated repositories, reused across runs (git-ignored). */
export const CACHE_DIR = process.env.BENCH_CACHE ?? path.join(BENCH_DIR, '.cache');

/** BENCH_SCALE multiplies every size (0.1 for a quick run); a named variable overrides one size. */
export const SCALE = Number(process.env.BENCH_SCALE ?? 1);

export function size(envName, full, min = 1) {
  const v = process.env[envName];
  if (v !== undefined && v !== '') return Number(v);
  return Math.max(min, Math.round(full * SCALE));
}

/** Paired-run count: not scaled (a median needs its samples whatever the size). */
export function runs(envName, dflt) {
  return Number(process.env[envName] ?? process.env.BENCH_RUNS ?? dflt);
}

/** A child environment without the variables of a hook or a worktree that launched us. */
export const childEnv = (() => {
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@example.com',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@example.com',
    NO_COLOR: '1',
  };
  for (const k of ['GIT_INDEX_FILE', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_TRACE', 'FINDINGS_SKIP', 'HUSKY', 'NODE_OPTIONS']) delete env[k];
  return env;
})();

export function load() {
  return loadavg().map((x) => Number(x.toFixed(2)));
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function git(cwd, args, input) {
  const r = spawnSync('git', ['-c', 'gc.auto=0', ...args], { cwd, env: childEnv, input, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.slice(0, 4).join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/**
 * Runs one command and returns its wall time (ms) and, with `rss`, its peak resident set (MB)
 * through /usr/bin/time (the child's own maxrss: git children of a node process are separate).
 */
export function timeOnce(cmd, args, { cwd, rss = false, okStatus = [0], env = childEnv } = {}) {
  const rssFile = rss && TIME ? path.join(tmpdir(), `bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`) : null;
  const [c, a] = rssFile ? [TIME, ['-f', '%M', '-o', rssFile, cmd, ...args]] : [cmd, args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(c, a, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!okStatus.includes(r.status)) {
    throw new Error(
      `${cmd} ${args.slice(0, 6).join(' ')} exited ${r.status}: ${String(r.stdout).slice(0, 500)}${String(r.stderr).slice(0, 2000)}`,
    );
  }
  let rssMb = null;
  if (rssFile) {
    const kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
    rmSync(rssFile, { force: true });
    rssMb = kb / 1024;
  }
  return { ms, rssMb, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Paired runs: floor parts, then the subject, `n` times, interleaved so that a change of load
 * hits both alike. `floor` is a list of thunks whose times add up to one floor sample.
 */
export function paired(n, floor, subject) {
  const floors = [];
  const subjects = [];
  const parts = floor.map(() => []);
  const loads = [];
  for (let i = 0; i < n; i += 1) {
    let f = 0;
    floor.forEach((thunk, k) => {
      const t = thunk().ms;
      parts[k].push(t);
      f += t;
    });
    floors.push(f);
    subjects.push(subject().ms);
    loads.push(load()[0]);
  }
  return {
    floor: median(floors),
    subject: median(subjects),
    parts: parts.map(median),
    pairedRatio: median(subjects.map((s, i) => s / floors[i])),
    load1: { min: Math.min(...loads), max: Math.max(...loads) },
    samples: { floors, subjects },
  };
}

/**
 * A generated repository cached under bench/.cache/<key>: `build(dir)` runs once per key; a
 * half-built folder is never reused (built in <key>.tmp, renamed when complete).
 */
export async function cachedRepo(key, build) {
  const dir = path.join(CACHE_DIR, key);
  const marker = `${dir}.complete`; // outside the repository: `git clean` must not see it
  if (existsSync(marker) && existsSync(dir)) return { dir, built: false, ms: 0 };
  rmSync(marker, { force: true });
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const t0 = performance.now();
  await build(tmp);
  renameSync(tmp, dir);
  writeFileSync(marker, '');
  return { dir, built: true, ms: performance.now() - t0 };
}

/**
 * Streams a `git fast-import` input into a fresh repository without holding it in memory:
 * `produce(write)` calls `write(stringOrBuffer)`; writes are buffered in 4 MB chunks.
 */
export async function fastImport(dir, produce) {
  git(dir, ['init', '-q', '-b', 'main']);
  const child = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: dir, env: childEnv, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}: ${stderr}`))));
  });
  let buf = [];
  let len = 0;
  const flush = async () => {
    if (len === 0) return;
    const chunk = Buffer.concat(buf);
    buf = [];
    len = 0;
    if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
  };
  const write = async (s) => {
    const b = typeof s === 'string' ? Buffer.from(s) : s;
    buf.push(b);
    len += b.length;
    if (len >= 4 << 20) await flush();
  };
  await produce(write);
  await write('done\n');
  await flush();
  child.stdin.end();
  await done;
}

// The project's own PRNG (mulberry32): generated repositories are the same for the same key.
export { prng } from '../../dist/src/prng.js';

/** One constraint index entry with a regex detector (the shape src/types.ts ConstraintEntry reads). */
export function constraintEntry(i, pattern, { status = 'active', globs = ['src/**/*.js'] } = {}) {
  return {
    id: `c-bench-${String(i).padStart(3, '0')}`,
    finding_id: `bench-${i}`,
    title: `bench ${i}`,
    status,
    enforcement_mode: status === 'active' ? 'block' : 'warn',
    source_artifact: `.agents/findings/bench-${i}.md`,
    review_file: null,
    compiled_at: '2026-01-01',
    applies_to: { scope: 'files', path_globs: globs },
    detector: { kind: 'regex', pattern },
    evidence: { positive_refs: ['p'], negative_control_refs: ['n'] },
  };
}

export function writeIndex(root, constraints) {
  mkdirSync(path.join(root, '.agents', 'constraints'), { recursive: true });
  writeFileSync(path.join(root, '.agents', 'constraints', 'index.json'), `${JSON.stringify({ version: 1, constraints }, null, 2)}\n`);
}

export const fmt = (x, d = 0) => (x === null || x === undefined ? '-' : Number(x).toFixed(d));

/**
 * The last line of every bench: one JSON object per summary row, collected by bench/run.mjs.
 * Row: { row, figure, unit, floor, floorLabel, ratio, target, pass, load }.
 */
export function emitResult(bench, params, rows) {
  console.log(`BENCH_RESULT ${JSON.stringify({ bench, params, rows })}`);
}

export function printParams(title, params) {
  console.log(`${title}`);
  console.log(
    `parameters: ${Object.entries(params)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}  (BENCH_SCALE=${SCALE})`,
  );
  console.log(`load average at start: ${load().join(' ')}  (node ${process.version}, ${process.platform})`);
}
