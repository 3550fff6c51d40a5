/** `findings explain` on a real repository: a constraint born from review findings in two tasks (docs/reuse.md). */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOk, makeMechanical as makeMechanicalWith } from '../helpers/findings.js';
import { FIXTURES, makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';

const ENV = { FINDINGS_NOW: '2026-03-01T10:00:00Z' };
const DIR = path.join(FIXTURES, 'reuse/explain');

const ok = (repo: TestRepo, args: string[]): Promise<string> => expectOk(repo, args, ENV);
const makeMechanical = (repo: TestRepo, id: string): void => makeMechanicalWith(repo, id, DIR);

interface Chain {
  query: string;
  matched: string | null;
  constraint: {
    id: string;
    status: string;
    enforcement_mode: string;
    file: string;
    line: number;
    measurement: {
      file: string;
      precision: number | null;
      labelled: number;
      true_positives: number;
      labelled_hits: { label: string; file: string; line: number; at: { path: string } }[];
    } | null;
  } | null;
  artifact: { id: string; file: string; line: number; detectability: string } | null;
  registry: {
    id: string;
    file: string;
    line: number;
    tier: string;
    source: { repo: string; session: string; file: string; skill: string };
    hit_count: number;
    last_cited: string | null;
  } | null;
  candidate: {
    class_key: string;
    file: string;
    line: number;
    recurrence_count: number;
    evidence: { task: string; round: number; file: string; line: number }[];
  } | null;
  review_findings: {
    short_id: string;
    task: string;
    round: number;
    origin: string;
    file: string;
    line: number;
    at: { file: string; line: number };
    evidence_ref: boolean;
  }[];
  tasks: { task: string; objective: string; rounds: number[]; origins: string[]; file: string }[];
  pulled_from: { url: string; commit: string; file: string; line: number } | null;
  diagnostics: unknown[];
}

describe('findings explain', () => {
  let repo: TestRepo;
  let id: string;
  let cid: string;
  beforeAll(async () => {
    repo = makeRepo({ 'src/a.ts': 'export const a = 1;\nconsole.log(a);\n' });
    repo.commitAll('a');
    repo.write('src/b.ts', 'console.log("b");\n');
    repo.commitAll('b');
    await ok(repo, ['review', 'task', 'T-1', '--criterion', 'works', '--objective', 'login']);
    await ok(repo, ['review', 'task', 'T-2', '--criterion', 'works', '--objective', 'billing']);
    await ok(repo, ['review', 'fail', 'T-1', '--findings', path.join(DIR, 'round-1.json')]);
    await ok(repo, ['review', 'fail', 'T-2', '--findings', path.join(DIR, 'round-1.json')]);
    await ok(repo, ['review', 'pr-fail', 'T-2', '--findings', path.join(DIR, 'round-2.json')]);
    await ok(repo, ['recur']);
    await ok(repo, ['recur', '--promote', 'debug-console-log']);
    id = (JSON.parse(repo.read('.agents/findings/registry.jsonl')) as { id: string }).id;
    cid = id;
    await ok(repo, ['compile']);
    makeMechanical(repo, id);
    await ok(repo, ['compile']);
    repo.commitAll('findings');
    await ok(repo, ['constraint', 'measure']);
    const m = JSON.parse(repo.read(`.agents/constraints/measurements/${cid}.json`)) as { hits: { id: string; path: string }[] };
    const hitA = m.hits.find((h) => h.path === 'src/a.ts')!.id;
    const hitB = m.hits.find((h) => h.path === 'src/b.ts')!.id;
    await ok(repo, ['constraint', 'label', cid, hitA, '--true-positive']);
    await ok(repo, ['constraint', 'label', cid, hitB, '--false-positive']);
  });

  const chainOf = async (query: string): Promise<{ chain: Chain; text: string }> => {
    const text = await ok(repo, ['explain', query, '--format', 'json']);
    return { chain: JSON.parse(text) as Chain, text };
  };

  it('shows the whole chain of a constraint: both tasks with their rounds and origins, each link with file and line', async () => {
    const { chain } = await chainOf(cid);
    expect(chain.matched).toBe('constraint');
    expect(chain.constraint).toMatchObject({ id: cid, status: 'shadow', enforcement_mode: 'warn', file: '.agents/constraints/index.json' });
    expect(chain.constraint!.line).toBeGreaterThan(1);
    expect(chain.constraint!.measurement).toMatchObject({
      file: `.agents/constraints/measurements/${cid}.json`,
      precision: 0.5,
      labelled: 2,
      true_positives: 1,
    });
    expect(chain.constraint!.measurement!.labelled_hits.map((h) => [h.label, h.at.path])).toEqual(
      expect.arrayContaining([
        ['true_positive', 'src/a.ts'],
        ['false_positive', 'src/b.ts'],
      ]),
    );
    for (const h of chain.constraint!.measurement!.labelled_hits) expect(h.line).toBeGreaterThan(1);
    expect(chain.artifact).toMatchObject({ id, file: `.agents/findings/${id}.md`, line: 2, detectability: 'mechanical' });
    expect(chain.registry).toMatchObject({
      id,
      file: '.agents/findings/registry.jsonl',
      line: 1,
      tier: 'local',
      hit_count: 0,
      last_cited: null,
    });
    expect(chain.candidate).toMatchObject({
      class_key: 'debug-console-log',
      file: '.agents/findings/candidates.jsonl',
      line: 1,
      recurrence_count: 2,
    });
    expect(chain.candidate!.evidence.map((e) => [e.task, e.round])).toEqual([
      ['T-2', 1],
      ['T-1', 1],
    ]);
    expect(chain.review_findings.map((r) => [r.task, r.round, r.origin, r.file, r.evidence_ref, r.at.file])).toEqual([
      ['T-1', 1, 'qa', '.agents/reviews/T-1.jsonl', true, 'src/a.ts'],
      ['T-2', 1, 'qa', '.agents/reviews/T-2.jsonl', true, 'src/a.ts'],
      ['T-2', 2, 'pr_gate', '.agents/reviews/T-2.jsonl', false, 'src/b.ts'],
    ]);
    for (const r of chain.review_findings) expect(r.line).toBeGreaterThan(0);
    expect(chain.tasks).toEqual([
      { task: 'T-1', objective: 'login', file: '.agents/tasks/T-1.json', line: 1, rounds: [1], origins: ['qa'] },
      { task: 'T-2', objective: 'billing', file: '.agents/tasks/T-2.json', line: 1, rounds: [1, 2], origins: ['pr_gate', 'qa'] },
    ]);
    expect(chain.pulled_from).toBeNull();
  });

  it('the JSON form is stable: documented keys in a fixed order, same bytes every time', async () => {
    const first = await chainOf(cid);
    const second = await chainOf(cid);
    expect(second.text).toBe(first.text);
    expect(Object.keys(first.chain)).toEqual([
      'query',
      'matched',
      'constraint',
      'artifact',
      'registry',
      'candidate',
      'review_findings',
      'tasks',
      'pulled_from',
      'diagnostics',
    ]);
    // `findings explain` adds the baseline and inline-suppression counts after the documented keys (docs/reuse.md).
    expect(Object.keys(first.chain.constraint!)).toEqual([
      'id',
      'file',
      'line',
      'finding_id',
      'title',
      'status',
      'enforcement_mode',
      'tier',
      'measurement',
      'baseline',
      'suppressions',
    ]);
    expect(Object.keys(first.chain.constraint!.measurement!)).toEqual([
      'file',
      'line',
      'measured_at_commit',
      'samples',
      'hits',
      'labelled',
      'true_positives',
      'false_positives',
      'precision',
      'labelled_hits',
    ]);
    expect(Object.keys(first.chain.constraint!.measurement!.labelled_hits[0]!)).toEqual(['id', 'file', 'line', 'at', 'label']);
    expect(Object.keys(first.chain.constraint!.measurement!.labelled_hits[0]!.at)).toEqual(['commit', 'path', 'line']);
    expect(Object.keys(first.chain.registry!.source)).toEqual(['repo', 'session', 'file', 'skill']);
    expect(Object.keys(first.chain.review_findings[0]!.at)).toEqual(['file', 'line']);
    expect(Object.keys(first.chain.artifact!)).toEqual(['id', 'file', 'line', 'title', 'status', 'tier', 'detectability']);
    expect(Object.keys(first.chain.registry!)).toEqual([
      'id',
      'file',
      'line',
      'status',
      'tier',
      'superseded_by',
      'source',
      'date',
      'hit_count',
      'last_cited',
      'dedup_key',
    ]);
    expect(Object.keys(first.chain.candidate!)).toEqual([
      'class_key',
      'file',
      'line',
      'derived',
      'recurrence_count',
      'advisory',
      'evidence',
    ]);
    expect(Object.keys(first.chain.candidate!.evidence[0]!)).toEqual([
      'task',
      'objective',
      'file',
      'line',
      'finding_id',
      'round',
      'origin',
    ]);
    expect(Object.keys(first.chain.review_findings[0]!)).toEqual([
      'id',
      'short_id',
      'task',
      'objective',
      'file',
      'line',
      'status',
      'round',
      'origin',
      'severity',
      'at',
      'expected',
      'actual',
      'fix',
      'evidence_ref',
    ]);
    expect(Object.keys(first.chain.tasks[0]!)).toEqual(['task', 'objective', 'file', 'line', 'rounds', 'origins']);
  });

  it('reaches the same chain from the finding id, the class key and a review finding id (8-character form)', async () => {
    const base = (await chainOf(cid)).chain;
    const strip = (c: Chain): unknown => ({ ...c, query: undefined, matched: undefined });
    // The constraint id is the finding id (as upstream), so the id names the constraint first.
    const viaFinding = (await chainOf(id)).chain;
    expect(viaFinding.matched).toBe('constraint');
    const viaOldId = (await chainOf(`c-${id}`)).chain;
    expect(strip(viaOldId)).toEqual(strip(base));
    expect(strip(viaFinding)).toEqual(strip(base));
    const viaClass = (await chainOf('debug-console-log')).chain;
    expect(viaClass.matched).toBe('candidate');
    expect(strip(viaClass)).toEqual(strip(base));
    const short = base.review_findings[2]!.short_id;
    const viaReview = (await chainOf(`F-${short.toUpperCase()}`)).chain;
    expect(viaReview.matched).toBe('review-finding');
    expect(strip(viaReview)).toEqual(strip(base));
  });

  it('prints the chain for people, each link ending with file:line', async () => {
    const text = await ok(repo, ['explain', cid]);
    expect(text).toContain(`constraint  ${cid}  .agents/constraints/index.json:`);
    expect(text).toContain(`artifact    ${id}  .agents/findings/${id}.md:2`);
    expect(text).toContain(`registry    ${id}  .agents/findings/registry.jsonl:1`);
    expect(text).toContain('candidate   debug-console-log  .agents/findings/candidates.jsonl:1');
    expect(text).toMatch(/review {6}\[F-[0-9a-f]{8}\] task T-2, round 2, pr_gate {2}\.agents\/reviews\/T-2\.jsonl:\d+/);
    expect(text).toContain('task        T-2  .agents/tasks/T-2.json:1\n  objective billing; rounds 1, 2; origins pr_gate, qa');
    expect(text).toContain('measured precision 0.50: 1 true / 1 false positives of 2 labelled');
  });

  it('an unknown id exits 1 with a message', async () => {
    const r = await runFindings(['explain', 'no-such-thing'], { cwd: repo.root, env: ENV });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('no constraint, finding, registry entry, candidate class or review finding has the id "no-such-thing"');
    expect(r.stdout).toContain('explain/unknown-id');
    const j = await runFindings(['explain', 'no-such-thing', '--json'], { cwd: repo.root, env: ENV });
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ matched: null, constraint: null, review_findings: [] });
    expect((await runFindings(['explain'], { cwd: repo.root, env: ENV })).code).toBe(2);
  });

  it('for a pulled finding, names the source repository and commit', async () => {
    repo.commitAll('all');
    const b = makeRepo({ 'README.md': 'B\n' });
    b.commitAll();
    await ok(b, ['pull', repo.root]);
    await ok(b, ['compile']);
    const r = await runFindings(['explain', cid, '--json'], { cwd: b.root, env: ENV });
    expect(r.code, r.stderr).toBe(0);
    const chain = JSON.parse(r.stdout) as Chain;
    expect(chain.constraint).toMatchObject({ status: 'shadow' });
    expect(chain.registry).toMatchObject({ tier: 'pulled', source: { skill: expect.any(String) as string } });
    expect(chain.pulled_from).toMatchObject({
      url: path.relative(b.root, repo.root),
      commit: repo.git('rev-parse', 'HEAD').trim(),
      file: '.agents/findings/sources.json',
      line: 5,
    });
    expect(Object.keys(chain.pulled_from!)).toEqual(['url', 'file', 'line', 'tier', 'commit', 'ref']);
    expect(chain.review_findings).toEqual([]); // the reviews live in the source repository
    expect(await ok(b, ['explain', cid])).toContain(`pulled from ${path.relative(b.root, repo.root)}  .agents/findings/sources.json:5`);
  });
});
