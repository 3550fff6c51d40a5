/**
 * A generated, deterministic commit history written with one `git fast-import` (500 `git commit`
 * calls would take far too long). The generator knows which files each commit changed.
 */
import { execFileSync } from 'node:child_process';
import type { TestRepo } from '../helpers/repo.js';

export interface GeneratedCommit {
  readonly mark: number;
  /** Paths added or modified (not deleted) by this commit, text or binary. */
  readonly changed: readonly string[];
}

/** A tiny deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
export function grepCounts(repo: TestRepo, shaByMark: ReadonlyMap<number, string>, history: readonly GeneratedCommit[], pattern: string): { samples: number; hits: number } {
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

