/**
 * A generated, deterministic commit history written with one `git fast-import` (500 `git commit`
 * calls would take far too long). The generator knows which files each commit changed.
 */
import { execFileSync } from 'node:child_process';
import type { TestRepo } from '../helpers/repo.js';
import { BlobStream } from '../../src/git/blob-stream.js';
import { streamHistory } from '../../src/git/history.js';
import { BatchBlobs, DistinctReplay, prepare, type BlobScreen, type ReplayResult } from '../../src/lifecycle/replay.js';
import { prng } from '../../src/prng.js';
import type { ConstraintEntry } from '../../src/types.js';
export { prng };

export interface GeneratedCommit {
  readonly mark: number;
  /** Paths added or modified (not deleted) by this commit, text or binary. */
  readonly changed: readonly string[];
}

export interface HistoryOptions {
  readonly commits: number;
  readonly seed?: number;
  /** Number of source files to spread changes over. */
  readonly files?: number;
  /** Extra marker words that lines may carry (each maps to a constraint in the bench). */
  readonly markers?: readonly string[];
}

const PATHS = (n: number): string[] => Array.from({ length: n }, (_, i) => (i % 5 === 4 ? `docs/page ${i}.md` : `src/mod${i}/file${i}.ts`));

/** Builds the file text for one version: some lines carry `console.log(` (sometimes twice). */
function fileText(rand: () => number, markers: readonly string[]): string {
  const lines: string[] = [];
  const n = 3 + Math.floor(rand() * 12);
  for (let i = 0; i < n; i += 1) {
    const r = rand();
    if (r < 0.08) lines.push(`  console.log("x${i}"); console.log("again");`);
    else if (r < 0.2) lines.push(`  console.log(value${i});`);
    else if (r < 0.25) lines.push(`  // console.debug is fine ${i}`);
    else if (markers.length > 0 && r < 0.45) lines.push(`  ${markers[Math.floor(rand() * markers.length)]}(${i});`);
    else lines.push(`  const v${i} = ${Math.floor(rand() * 1000)};`);
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the history onto `refs/heads/main` of the repository (which must have no commits yet). */
export function generateHistory(repo: TestRepo, options: HistoryOptions): GeneratedCommit[] {
  const rand = prng(options.seed ?? 42);
  const paths = PATHS(options.files ?? 20);
  const markers = options.markers ?? [];
  const present = new Set<string>();
  const chunks: Buffer[] = [];
  const push = (s: string | Buffer): void => {
    chunks.push(typeof s === 'string' ? Buffer.from(s, 'utf8') : s);
  };
  const data = (content: Buffer): void => {
    push(`data ${content.length}\n`);
    push(content);
    push('\n');
  };
  const out: GeneratedCommit[] = [];
  for (let c = 1; c <= options.commits; c += 1) {
    const msg = Buffer.from(`commit ${c}\n`);
    push(`commit refs/heads/main\nmark :${c}\ncommitter Test <t@example.com> ${1_700_000_000 + c * 60} +0000\n`);
    data(msg);
    if (c > 1) push(`from :${c - 1}\n`);
    const changed: string[] = [];
    const count = c === 1 ? paths.length : 1 + Math.floor(rand() * 3);
    const chosen = c === 1 ? paths : [...new Set(Array.from({ length: count }, () => paths[Math.floor(rand() * paths.length)]!))];
    for (const p of chosen) {
      if (c > 1 && present.has(p) && rand() < 0.05) {
        push(`D "${p}"\n`);
        present.delete(p);
        continue;
      }
      push(`M 100644 inline "${p}"\n`);
      data(Buffer.from(fileText(rand, markers)));
      present.add(p);
      changed.push(p);
    }
    if (rand() < 0.03) {
      // A binary file that contains the pattern: skipped by the engine and by `git grep -I`.
      push('M 100644 inline "src/blob.bin"\n');
      data(Buffer.concat([Buffer.from('console.log(1)\n'), Buffer.from([0, 1, 2, 3])]));
      changed.push('src/blob.bin');
    }
    out.push({ mark: c, changed });
  }
  push('done\n');
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: repo.root, input: Buffer.concat(chunks) });
  execFileSync('git', ['read-tree', '-u', '--reset', 'HEAD'], { cwd: repo.root });
  return out;
}

/** Independent count: `git grep -I -c -P` at every commit, restricted to the files it changed. */
export function grepCounts(
  repo: TestRepo,
  shaByMark: ReadonlyMap<number, string>,
  history: readonly GeneratedCommit[],
  pattern: string,
): { samples: number; hits: number } {
  const counts = new Map<string, number>();
  const shas = [...shaByMark.values()];
  for (let i = 0; i < shas.length; i += 100) {
    const r = repo.tryGit(['grep', '-I', '-c', '-P', pattern, ...shas.slice(i, i + 100), '--', 'src/']);
    for (const line of r.stdout.split('\n').filter((l) => l !== '')) {
      const last = line.lastIndexOf(':');
      counts.set(line.slice(0, last), Number(line.slice(last + 1)));
    }
  }
  let samples = 0;
  let hits = 0;
  for (const c of history) {
    const sha = shaByMark.get(c.mark)!;
    for (const p of c.changed) {
      if (!p.startsWith('src/') || p.endsWith('.bin')) continue;
      samples += 1;
      hits += counts.get(`${sha}:${p}`) ?? 0;
    }
  }
  return { samples, hits };
}

/**
 * Independent count of distinct hits with `git grep -I -h -P` at every commit (the history is
 * linear, so commit N's first parent is commit N-1): per changed file, the matching lines whose
 * content occurs more often than in the parent's version of the same path.
 */
export function grepDistinct(
  repo: TestRepo,
  shaByMark: ReadonlyMap<number, string>,
  history: readonly GeneratedCommit[],
  pattern: string,
): number {
  const lines = new Map<string, Map<string, number>>();
  const shas = [...shaByMark.values()];
  for (let i = 0; i < shas.length; i += 100) {
    const r = repo.tryGit(['grep', '-I', '-P', '-z', pattern, ...shas.slice(i, i + 100), '--', 'src/']);
    // -z: "<sha>:<path>\0<content>\n"
    for (const row of r.stdout.split('\n').filter((l) => l !== '')) {
      const nul = row.indexOf('\0');
      const where = row.slice(0, nul);
      const counts = lines.get(where) ?? new Map<string, number>();
      lines.set(where, counts);
      const content = row.slice(nul + 1);
      counts.set(content, (counts.get(content) ?? 0) + 1);
    }
  }
  let hits = 0;
  for (const c of history) {
    const sha = shaByMark.get(c.mark)!;
    const parent = shaByMark.get(c.mark - 1);
    for (const p of c.changed) {
      if (!p.startsWith('src/') || p.endsWith('.bin')) continue;
      const now = lines.get(`${sha}:${p}`) ?? new Map<string, number>();
      const before = parent === undefined ? new Map<string, number>() : (lines.get(`${parent}:${p}`) ?? new Map<string, number>());
      for (const [content, n] of now) hits += Math.max(0, n - (before.get(content) ?? 0));
    }
  }
  return hits;
}

/** Writes linear commits (each a map of path → full new content) onto `refs/heads/main` with one fast-import. */
export function writeCommits(repo: TestRepo, commits: readonly Readonly<Record<string, string>>[]): string[] {
  const chunks: string[] = [];
  commits.forEach((files, i) => {
    const c = i + 1;
    chunks.push(`commit refs/heads/main\nmark :${c}\ncommitter Test <t@example.com> ${1_700_000_000 + c * 60} +0000\n`);
    const msg = `commit ${c}\n`;
    chunks.push(`data ${Buffer.byteLength(msg)}\n${msg}\n`);
    if (c > 1) chunks.push(`from :${c - 1}\n`);
    for (const [p, content] of Object.entries(files))
      chunks.push(`M 100644 inline "${p}"\ndata ${Buffer.byteLength(content)}\n${content}\n`);
  });
  chunks.push('done\n');
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: repo.root, input: chunks.join('') });
  execFileSync('git', ['read-tree', '-u', '--reset', 'HEAD'], { cwd: repo.root });
  return repo.git('rev-list', '--reverse', 'HEAD').trim().split('\n');
}

/**
 * 41 commits: `eval(a);` in src/keep.js is introduced by commit 1 and survives 20 commits that
 * each add a line above it; then commits 22–41 each add one new `eval(<k>);` to src/new.js.
 */
export function survivalHistory(repo: TestRepo): string[] {
  const commits: Record<string, string>[] = [];
  commits.push({ 'src/keep.js': 'const a = 1;\neval(a);\n' });
  for (let k = 1; k <= 20; k += 1) {
    const above = Array.from({ length: k }, (_, i) => `// step ${i + 1}`).join('\n');
    commits.push({ 'src/keep.js': `${above}\nconst a = 1;\neval(a);\n` });
  }
  for (let k = 1; k <= 20; k += 1) commits.push({ 'src/new.js': Array.from({ length: k }, (_, i) => `eval(${i + 1});\n`).join('') });
  return writeCommits(repo, commits);
}

/**
 * A linear history of `commits` commits, each rewriting one of 8 files with `fileBytes` of fresh
 * text (a few lines carry `console.log(`), for memory tests: the blobs add up to commits × fileBytes.
 */
export function bulkyHistory(repo: TestRepo, commits: number, fileBytes: number): void {
  const rand = prng(11);
  const chunks: Buffer[] = [];
  const push = (s: string): void => {
    chunks.push(Buffer.from(s, 'utf8'));
  };
  for (let c = 1; c <= commits; c += 1) {
    push(`commit refs/heads/main\nmark :${c}\ncommitter Test <t@example.com> ${1_700_000_000 + c * 60} +0000\ndata 2\nc\n`);
    if (c > 1) push(`from :${c - 1}\n`);
    const lines: string[] = [];
    let size = 0;
    while (size < fileBytes) {
      const r = rand();
      const line =
        r < 0.0005
          ? `  console.log("v${c}", ${Math.floor(r * 1e9)});`
          : `  const v${Math.floor(rand() * 1e9)} = ${Math.floor(rand() * 1e9)} + ${c};`;
      lines.push(line);
      size += line.length + 1;
    }
    const content = `${lines.join('\n')}\n`;
    push(`M 100644 inline src/f${c % 8}.ts\ndata ${Buffer.byteLength(content)}\n${content}\n`);
  }
  push('done\n');
  // No deltas and no compression: fresh random text gains little from either, and they cost most of the time.
  execFileSync('git', ['-c', 'core.compression=0', 'fast-import', '--quiet', '--done', '--big-file-threshold=1k'], {
    cwd: repo.root,
    input: Buffer.concat(chunks),
    maxBuffer: 1 << 30,
  });
  execFileSync('git', ['read-tree', '-u', '--reset', 'HEAD'], { cwd: repo.root });
}

/**
 * A linear history of `commits` commits that each change all of `paths` small files outside
 * `src/` (two alternating contents), for memory tests of the log: its `git log --raw` output is
 * about commits × paths × 115 bytes, though no blob needs reading.
 */
export function wideHistory(repo: TestRepo, commits: number, paths: number): void {
  const chunks: string[] = ['blob\nmark :1\ndata 2\na\n', 'blob\nmark :2\ndata 2\nb\n'];
  for (let c = 1; c <= commits; c += 1) {
    const mark = c + 2;
    chunks.push(`commit refs/heads/main\nmark :${mark}\ncommitter Test <t@example.com> ${1_700_000_000 + c * 60} +0000\ndata 2\nc\n`);
    if (c > 1) chunks.push(`from :${mark - 1}\n`);
    for (let p = 0; p < paths; p += 1) chunks.push(`M 100644 :${1 + (c % 2)} wide/file-${p}.txt\n`);
  }
  chunks.push('done\n');
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: repo.root, input: chunks.join(''), maxBuffer: 1 << 30 });
  execFileSync('git', ['read-tree', '-u', '--reset', 'HEAD'], { cwd: repo.root });
}

/**
 * Replays a repository's whole history for `entries` as the measure walk does, one commit's
 * blobs at a time, and returns each replay's result: for tests that compare two ways of replaying.
 */
export async function replayHistory(
  root: string,
  entries: readonly ConstraintEntry[],
  options: { readonly windows?: boolean; readonly screen: (replays: readonly DistinctReplay[]) => BlobScreen | null },
): Promise<ReplayResult[]> {
  const replays = entries.map((e) => {
    const p = prepare(e);
    if (!p.ok) throw new Error(p.problem);
    return new DistinctReplay(p, { budgetMs: 10_000, ...(options.windows === undefined ? {} : { windows: options.windows }) });
  });
  const screen = options.screen(replays);
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  const reader = new BlobStream(root);
  try {
    for await (const commit of streamHistory(root, head)) {
      const wanted = new Set(replays.flatMap((r) => r.needed(commit)));
      const blobs = new BatchBlobs(await reader.read([...wanted]), screen);
      for (const r of replays) r.add(commit, blobs);
    }
  } finally {
    reader.close();
  }
  return replays.map((r) => r.result(12));
}
