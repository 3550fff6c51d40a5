import path from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';
import { measureConstraints } from '../../src/lifecycle/measure.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { LogRawParser, parseLogRaw, historyCommits, streamHistory, uniquePrefixLength } from '../../src/git/history.js';
import { FIXTURES, makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';
import { generateHistory, grepCounts, grepDistinct, type GeneratedCommit } from './history.js';

const MEASUREMENT = '.agents/constraints/measurements/f-console.json';

interface Hit {
  id: string;
  commit: string;
  path: string;
  line: number;
  label?: string;
}
interface MeasurementFile {
  samples: number;
  commits: number;
  measured_at_commit: string;
  hits: Hit[];
  range: { since: string | null; commits: number | null };
}

describe('findings constraint measure over a generated 500-commit history', () => {
  let repo: TestRepo;
  let history: GeneratedCommit[];
  const shaByMark = new Map<number, string>();
  beforeAll(() => {
    repo = makeRepo();
    history = generateHistory(repo, { commits: 500 });
    const shas = repo.git('rev-list', '--reverse', 'HEAD').trim().split('\n');
    shas.forEach((s, i) => {
      shaByMark.set(i + 1, s);
    });
    repo.copy(path.join(FIXTURES, 'lifecycle/measure/index.json'), '.agents/constraints/index.json');
  });

  it('counts samples as git grep does at each commit, and each violation once, at the commit that introduced it', async () => {
    const r = await runFindings(['constraint', 'measure'], { cwd: repo.root });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const m = JSON.parse(repo.read(MEASUREMENT)) as MeasurementFile;
    const expected = grepCounts(repo, shaByMark, history, 'console\\.log\\(');
    const distinct = grepDistinct(repo, shaByMark, history, 'console\\.log\\(');
    expect(distinct).toBeGreaterThan(100);
    expect(distinct).toBeLessThan(expected.hits);
    expect({ samples: m.samples, hits: m.hits.length }).toEqual({ samples: expected.samples, hits: distinct });
    // every sighting is either an introduction (a hit) or counted in some hit's `seen`
    expect(m.hits.reduce((n, h) => n + 1 + (h as Hit & { seen: number }).seen, 0)).toBeLessThanOrEqual(expected.hits);
    expect(m.commits).toBe(500);
    expect(m.measured_at_commit).toBe(shaByMark.get(500));
    // ids are <commit8>:<path>:<line>, unique and sorted
    const ids = m.hits.map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const h of m.hits.slice(0, 20)) expect(h.id).toBe(`${h.commit.slice(0, 8)}:${h.path}:${h.line}`);
    expect(r.stdout).toContain('f-console: ');
  });

  it('is deterministic and keeps labels when measuring again', async () => {
    const before = repo.read(MEASUREMENT);
    const m = JSON.parse(before) as MeasurementFile;
    const picked = m.hits.slice(0, 3).map((h) => h.id);
    const l = await runFindings(['constraint', 'label', 'f-console', ...picked, '--true-positive'], { cwd: repo.root });
    expect(l.code).toBe(0);
    expect(l.stdout).toContain('3 hit(s) labelled');
    const labelled = repo.read(MEASUREMENT);
    const again = await runFindings(['constraint', 'measure', 'f-console'], { cwd: repo.root });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('(unchanged)');
    expect(repo.read(MEASUREMENT)).toBe(labelled);
    const after = JSON.parse(labelled) as MeasurementFile;
    expect(after.hits.filter((h) => h.label === 'true_positive').map((h) => h.id)).toEqual(picked);
  });

  it('measures only the newest N commits with --commits, and commits after a revision with --since', async () => {
    const r = await runFindings(['constraint', 'measure', '--commits', '10', '--json'], { cwd: repo.root });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { commits: number; diagnostics: { ruleId: string }[] };
    expect(out.commits).toBe(10);
    // unlabelled hits outside the newest 10 commits go; the three labelled ones stay (same detector)
    const m = JSON.parse(repo.read(MEASUREMENT)) as MeasurementFile;
    expect(m.range).toEqual({ since: null, commits: 10 });
    const newest = new Set([...shaByMark.entries()].filter(([mark]) => mark > 490).map(([, s]) => s));
    expect(m.hits.filter((h) => h.label === undefined).every((h) => newest.has(h.commit))).toBe(true);
    expect(m.hits.filter((h) => h.label !== undefined)).toHaveLength(3);
    expect(out.diagnostics.map((d) => d.ruleId)).not.toContain('lifecycle/labels-dropped');
    const s = await runFindings(['constraint', 'measure', '--since', shaByMark.get(495)!], { cwd: repo.root });
    expect(s.code).toBe(0);
    expect(JSON.parse(repo.read(MEASUREMENT)).commits).toBe(5);
  });

  it('shows no progress on a TTY for a walk under a second, and none at all off a TTY', async () => {
    let stderr = '';
    let stdout = '';
    const code = await runCli(['constraint', 'measure', '--commits', '3'], {
      cwd: repo.root,
      env: { ...process.env, NO_COLOR: '1' },
      stdin: Readable.from([]),
      stdout: { write: (s: string) => (stdout += s), isTTY: false },
      stderr: { write: (s: string) => (stderr += s), isTTY: true },
    });
    expect(code).toBe(0);
    expect(stderr).not.toContain('measuring:');
    expect(stdout).not.toContain('measuring:');
  });

  it('reports done/total, rate and ETA once the walk runs longer than the threshold', async () => {
    const lines: string[] = [];
    const r = await measureConstraints(repo.root, {
      ids: ['f-console'],
      range: { commits: 200 },
      onProgress: (l) => lines.push(l),
      progressAfterMs: 0,
    });
    expect(r.commits).toBe(200);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/^measuring: 200\/200 commits, \d+ commits\/s, ETA 0s$/);
    expect(lines[0]).toMatch(/^measuring: \d+\/200 commits, \d+ commits\/s, ETA \d+(m\d\d)?s$/);
  });

  it('refuses unknown and retired ids (exit 1) and bad options (exit 2)', async () => {
    const unknown = await runFindings(['constraint', 'measure', 'nope'], { cwd: repo.root });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('no constraint "nope" in the index (known: f-console, f-retired)');
    const retired = await runFindings(['constraint', 'measure', 'f-retired'], { cwd: repo.root });
    expect(retired.code).toBe(1);
    expect(retired.stdout).toContain('is retired');
    expect((await runFindings(['constraint', 'measure', '--since', 'HEAD~1', '--commits', '2'], { cwd: repo.root })).code).toBe(2);
    expect((await runFindings(['constraint', 'measure', '--commits', '0'], { cwd: repo.root })).code).toBe(2);
    expect((await runFindings(['constraint', 'measure', '--since', 'no-such-rev'], { cwd: repo.root })).code).toBe(2);
  });
});

describe('re-measuring with a narrower range keeps the labels (a labelled hit is a fact about history)', () => {
  let repo: TestRepo;
  let shas: string[];
  let full: MeasurementFile;
  let labelled: string;
  const measure = async (
    ...args: string[]
  ): Promise<{ code: number; diagnostics: { ruleId: string; message: string }[]; labelled: number }> => {
    const r = await runFindings(['constraint', 'measure', 'f-console', ...args, '--json'], { cwd: repo.root });
    const out = JSON.parse(r.stdout) as {
      diagnostics: { ruleId: string; message: string }[];
      measured: { summary: { labelled: number } }[];
    };
    return { code: r.code, diagnostics: out.diagnostics, labelled: out.measured[0]!.summary.labelled };
  };
  const labels = (m: MeasurementFile): [string, string | undefined][] =>
    m.hits.filter((h) => h.label !== undefined).map((h) => [h.id, h.label]);

  beforeAll(async () => {
    repo = makeRepo();
    generateHistory(repo, { commits: 60, seed: 7 });
    shas = repo.git('rev-list', '--reverse', 'HEAD').trim().split('\n');
    repo.copy(path.join(FIXTURES, 'lifecycle/measure/index.json'), '.agents/constraints/index.json');
    expect((await measure()).code).toBe(0);
    full = JSON.parse(repo.read(MEASUREMENT)) as MeasurementFile;
    // 20 labelled hits: 10 in the oldest 40 commits (outside --commits 20), 10 in the newest 20
    const newest = new Set(shas.slice(-20));
    const old = full.hits
      .filter((h) => !newest.has(h.commit))
      .slice(0, 10)
      .map((h) => h.id);
    const recent = full.hits
      .filter((h) => newest.has(h.commit))
      .slice(0, 10)
      .map((h) => h.id);
    expect([old.length, recent.length]).toEqual([10, 10]);
    const tp = await runFindings(['constraint', 'label', 'f-console', ...old, ...recent.slice(0, 9), '--true-positive'], {
      cwd: repo.root,
    });
    expect(tp.code, tp.stdout).toBe(0);
    const fp = await runFindings(['constraint', 'label', 'f-console', recent[9]!, '--false-positive'], { cwd: repo.root });
    expect(fp.code, fp.stdout).toBe(0);
    labelled = repo.read(MEASUREMENT);
    expect(labels(JSON.parse(labelled) as MeasurementFile)).toHaveLength(20);
  });

  it('--commits 20 keeps all 20 labels; measuring the full history again gives the labelled file back byte for byte', async () => {
    const before = labels(JSON.parse(labelled) as MeasurementFile);
    const narrow = await measure('--commits', '20');
    expect(narrow.code).toBe(0);
    expect(narrow.diagnostics.map((d) => d.ruleId)).not.toContain('lifecycle/labels-dropped');
    expect(narrow.labelled).toBe(20);
    const m = JSON.parse(repo.read(MEASUREMENT)) as MeasurementFile;
    expect(m.range).toEqual({ since: null, commits: 20 });
    expect(labels(m)).toEqual(before);
    // unlabelled hits outside the range are gone
    const newest = new Set(shas.slice(-20));
    expect(m.hits.filter((h) => h.label === undefined).every((h) => newest.has(h.commit))).toBe(true);
    expect(m.hits.length).toBeLessThan(full.hits.length);

    const since = await measure('--since', shas[49]!);
    expect(since.labelled).toBe(20);
    const again = await measure();
    expect(again.code).toBe(0);
    expect(again.labelled).toBe(20);
    expect(repo.read(MEASUREMENT)).toBe(labelled);
  });

  it('drops the labels outside the range, with a warning, once the detector changed', async () => {
    const index = JSON.parse(repo.read('.agents/constraints/index.json')) as {
      constraints: { finding_id: string; detector: { pattern: string } }[];
    };
    index.constraints.find((c) => c.finding_id === 'f-console')!.detector.pattern = 'console\\.log\\(\\s*';
    repo.write('.agents/constraints/index.json', `${JSON.stringify(index, null, 2)}\n`);
    const narrow = await measure('--commits', '20');
    expect(narrow.code).toBe(0);
    expect(narrow.labelled).toBe(10);
    expect(narrow.diagnostics).toEqual([
      expect.objectContaining({
        ruleId: 'lifecycle/labels-dropped',
        message: expect.stringContaining('10 labelled hit(s) of the previous measurement were not found again with the changed detector'),
      }),
    ]);
    const m = JSON.parse(repo.read(MEASUREMENT)) as MeasurementFile;
    const newest = new Set(shas.slice(-20));
    expect(m.hits.every((h) => newest.has(h.commit))).toBe(true);
  });
});

describe('history listing', () => {
  it('lists changes against the first parent, the root commit whole, renames as delete + add, odd paths intact', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n', 'd/b c.txt': 'b\n', 'ü\u0001x.txt': 'odd\n' });
    repo.commitAll('root');
    repo.git('checkout', '-q', '-b', 'side');
    repo.write('a.txt', 'a\nside\n');
    repo.commitAll('side');
    repo.git('checkout', '-q', 'main');
    repo.write('y.txt', 'y\n');
    repo.commitAll('main');
    repo.git('merge', '-q', '--no-edit', 'side');
    repo.git('mv', 'y.txt', 'z.txt');
    repo.commitAll('rename');
    repo.git('commit', '-q', '--allow-empty', '-m', 'empty');
    const head = repo.git('rev-parse', 'HEAD').trim();
    const commits = await historyCommits(repo.root, head);
    const view = commits.map((c) => ({ parents: c.parents.length, changes: c.changes.map((ch) => `${ch.status} ${ch.path}`).sort() }));
    expect(view).toEqual([
      { parents: 1, changes: [] },
      { parents: 1, changes: ['A z.txt', 'D y.txt'] },
      { parents: 2, changes: ['M a.txt'] },
      { parents: 1, changes: ['A y.txt'] },
      { parents: 1, changes: ['M a.txt'] },
      { parents: 0, changes: ['A a.txt', 'A d/b c.txt', 'A ü\u0001x.txt'] },
    ]);
  });
  it('parses the log the same when it arrives in chunks of any size (streaming)', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n', 'd/b c.txt': 'b\n', 'ü\u0001x.txt': 'odd\n' });
    repo.commitAll('root');
    repo.write('a.txt', 'changed\n');
    repo.git('mv', 'd/b c.txt', 'e.txt');
    repo.commitAll('second');
    repo.git('commit', '-q', '--allow-empty', '-m', 'empty');
    const out = execFileSync('git', ['log', '--format=%x01%H %P', '--raw', '-z', '--no-abbrev', '--no-renames', '--root'], {
      cwd: repo.root,
    });
    const whole = parseLogRaw(out);
    expect(whole).toHaveLength(3);
    for (const size of [1, 7, 64]) {
      const parser = new LogRawParser();
      const got: unknown[] = [];
      for (let i = 0; i < out.length; i += size) got.push(...parser.push(out.subarray(i, i + size)));
      got.push(...parser.end());
      expect(got).toEqual(whole);
    }
    const streamed: string[] = [];
    for await (const c of streamHistory(repo.root, repo.git('rev-parse', 'HEAD').trim())) streamed.push(c.sha);
    expect(streamed).toEqual(whole.map((c) => c.sha).reverse());
  });
  it('parses an empty log', () => {
    expect(parseLogRaw(Buffer.alloc(0))).toEqual([]);
  });
  it('lengthens the hit-id prefix only when two commits share 8 digits', () => {
    expect(uniquePrefixLength(['abcdef0123', 'abcdef0199'])).toBe(9);
    expect(uniquePrefixLength(['abcdef0123', 'bbcdef0199'])).toBe(8);
  });
});
