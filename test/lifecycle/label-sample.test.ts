/**
 * Labels in bulk (`label <id> --from <file|->`), sampled labels (`sample <id>`), and precision
 * with its 95 % Wilson interval in `activate` and `explain` (docs/lifecycle.md).
 */
import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/lifecycle/wilson.js';
import { constraint, indexJson } from '../hooks/setup.js';
import { makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';
import { survivalHistory, writeCommits } from './history.js';

interface Hit {
  id: string;
  path: string;
  line: number;
  label?: string;
  note?: string;
}

const C = constraint('eval', { status: 'shadow', globs: ['src/**/*.js'] });
const hitsOf = (repo: TestRepo): Hit[] => (JSON.parse(repo.read('.agents/constraints/measurements/eval.json')) as { hits: Hit[] }).hits;

async function measured(): Promise<TestRepo> {
  const repo = makeRepo();
  survivalHistory(repo);
  repo.write('.agents/constraints/index.json', indexJson(C));
  expect((await runFindings(['constraint', 'measure'], { cwd: repo.root })).code).toBe(0);
  return repo;
}

describe('constraint label --from', () => {
  it(
    'applies "<hit-id> tp|fp [note…]" lines, keeps notes, skips "?" and comments,' +
      ' and reports unknown ids (exit 1) while applying the known ones',
    async () => {
      const repo = await measured();
      const [a, b, c] = hitsOf(repo);
      repo.write('labels.txt', `# a comment\n${a!.id} tp real eval of user input\n\n${b!.id} fp\n${c!.id} ?\nffffffff:src/nope.js:1 tp\n`);
      const r = await runFindings(['constraint', 'label', 'eval', '--from', 'labels.txt'], { cwd: repo.root });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('no hit "ffffffff:src/nope.js:1" in the measurement of eval');
      expect(r.stdout).toContain('1 hit(s) without a verdict (?) left unlabelled');
      expect(r.stdout).toContain('eval: 2 hit(s) labelled');
      const hits = hitsOf(repo);
      expect(hits.find((h) => h.id === a!.id)).toMatchObject({ label: 'true_positive', note: 'real eval of user input' });
      expect(hits.find((h) => h.id === b!.id)).toMatchObject({ label: 'false_positive' });
      expect(hits.find((h) => h.id === c!.id)!.label).toBeUndefined();
      // the note survives re-measurement
      expect((await runFindings(['constraint', 'measure'], { cwd: repo.root })).code).toBe(0);
      expect(hitsOf(repo).find((h) => h.id === a!.id)).toMatchObject({ label: 'true_positive', note: 'real eval of user input' });
    },
  );

  it('reads standard input with "-"; a line that is not a label applies nothing (exit 2); the id form stays', async () => {
    const repo = await measured();
    const ids = hitsOf(repo).map((h) => h.id);
    const ok = await runFindings(['constraint', 'label', 'eval', '--from', '-'], {
      cwd: repo.root,
      stdin: ids
        .slice(0, 3)
        .map((id) => `${id} true_positive`)
        .join('\n'),
    });
    expect(ok.code, ok.stdout).toBe(0);
    expect(hitsOf(repo).filter((h) => h.label === 'true_positive')).toHaveLength(3);
    const bad = await runFindings(['constraint', 'label', 'eval', '--from', '-'], {
      cwd: repo.root,
      stdin: `${ids[5]} fp\n${ids[6]} maybe\n`,
    });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain('<stdin>:2');
    expect(bad.stdout).toContain('"maybe" after');
    expect(hitsOf(repo).filter((h) => h.label !== undefined)).toHaveLength(3);
    const old = await runFindings(['constraint', 'label', 'eval', ids[7]!, '--false-positive'], { cwd: repo.root });
    expect(old.code).toBe(0);
    expect((await runFindings(['constraint', 'label', 'eval', ids[8]!, '--from', '-'], { cwd: repo.root })).code).toBe(2);
    expect((await runFindings(['constraint', 'label', 'eval', '--from', 'missing.txt'], { cwd: repo.root })).code).toBe(2);
  });

  it('refuses --interactive off a terminal (exit 2, saying so)', async () => {
    const repo = await measured();
    const r = await runFindings(['constraint', 'label', 'eval', '--interactive'], { cwd: repo.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--interactive needs a terminal');
  });
});

describe('constraint sample', () => {
  it('prints a deterministic sample of unlabelled distinct hits as a label file that --from accepts once filled in', async () => {
    const repo = await measured();
    const first = await runFindings(['constraint', 'sample', 'eval'], { cwd: repo.root });
    expect(first.code).toBe(0);
    expect((await runFindings(['constraint', 'sample', 'eval'], { cwd: repo.root })).stdout).toBe(first.stdout);
    expect(first.stdout).toMatch(/^# eval: 20 of 21 unlabelled distinct hit\(s\), seed \d+\n/);
    const entries = first.stdout.split('\n').filter((l) => l.endsWith(' ?'));
    expect(entries).toHaveLength(20);
    // each entry is preceded by the hit's text read from git at its commit
    expect(first.stdout).toMatch(
      /# src\/keep\.js:2 @ [0-9a-f]{12} \(still there 20 commit\(s\) later\): eval\(a\);\n[0-9a-f]{8}:src\/keep\.js:2 \?/,
    );
    const other = await runFindings(['constraint', 'sample', 'eval', '--seed', '7', '--size', '5'], { cwd: repo.root });
    expect(other.stdout.split('\n').filter((l) => l.endsWith(' ?'))).toHaveLength(5);
    expect((await runFindings(['constraint', 'sample', 'eval', '--seed', '7', '--size', '5'], { cwd: repo.root })).stdout).toBe(
      other.stdout,
    );

    // fill in the sample and label from it
    const filled = first.stdout.replace(/ \?$/gm, ' tp');
    const l = await runFindings(['constraint', 'label', 'eval', '--from', '-'], { cwd: repo.root, stdin: filled });
    expect(l.code, l.stdout).toBe(0);
    expect(l.stdout).toContain('20 hit(s) labelled');
    // labelled hits are no longer sampled
    const rest = await runFindings(['constraint', 'sample', 'eval', '--format', 'json'], { cwd: repo.root });
    const json = JSON.parse(rest.stdout) as { size: number; unlabelled: number; hits: { text: string }[] };
    expect({ size: json.size, unlabelled: json.unlabelled }).toEqual({ size: 1, unlabelled: 1 });
    expect(json.hits[0]!.text).toMatch(/^eval\(/);
  });

  it('handles paths with spaces in label files', async () => {
    const repo = makeRepo();
    writeCommits(repo, [{ 'src/a b.js': 'eval(1);\n' }]);
    repo.write('.agents/constraints/index.json', indexJson(C));
    expect((await runFindings(['constraint', 'measure'], { cwd: repo.root })).code).toBe(0);
    const s = await runFindings(['constraint', 'sample', 'eval'], { cwd: repo.root });
    const l = await runFindings(['constraint', 'label', 'eval', '--from', '-'], {
      cwd: repo.root,
      stdin: s.stdout.replace(/ \?$/gm, ' fp looks fine'),
    });
    expect(l.code, l.stdout).toBe(0);
    expect(hitsOf(repo)[0]).toMatchObject({ path: 'src/a b.js', label: 'false_positive', note: 'looks fine' });
  });

  it('refuses a missing measurement (exit 1) and bad options (exit 2)', async () => {
    const repo = makeRepo();
    repo.write('.agents/constraints/index.json', indexJson(C));
    expect((await runFindings(['constraint', 'sample', 'eval'], { cwd: repo.root })).code).toBe(1);
    const m = await measured();
    expect((await runFindings(['constraint', 'sample', 'eval', '--size', '0'], { cwd: m.root })).code).toBe(2);
    expect((await runFindings(['constraint', 'sample', 'eval', '--seed', 'x'], { cwd: m.root })).code).toBe(2);
    expect((await runFindings(['constraint', 'label', 'eval', '--from', '-', '--sample'], { cwd: m.root })).code).toBe(2);
  });
});

describe('precision with a 95% Wilson interval', () => {
  it('computes the Wilson score interval', () => {
    const [lo, hi] = wilsonInterval(19, 20)!;
    expect(lo).toBeCloseTo(0.7639, 4);
    expect(hi).toBeCloseTo(0.9911, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
    const [lo0, hi0] = wilsonInterval(0, 10)!;
    expect(lo0).toBe(0);
    expect(hi0).toBeCloseTo(0.2775, 4);
  });

  it('activate and explain print it beside the point value', async () => {
    const repo = await measured();
    const ids = hitsOf(repo).map((h) => h.id);
    await runFindings(['constraint', 'label', 'eval', ...ids.slice(0, 18), '--true-positive'], { cwd: repo.root });
    await runFindings(['constraint', 'label', 'eval', ...ids.slice(18, 20), '--false-positive'], { cwd: repo.root });
    const a = await runFindings(['constraint', 'activate', 'eval'], { cwd: repo.root });
    expect(a.code).toBe(1);
    expect(a.stdout).toContain('precision 0.90 (95% CI 0.70–0.97) < 0.95 (18 of 20 labelled hits true)');
    const e = await runFindings(['explain', 'eval'], { cwd: repo.root });
    expect(e.stdout).toContain('measured precision 0.90: 18 true / 2 false positives of 20 labelled (95% CI 0.70–0.97)');
  });
});
