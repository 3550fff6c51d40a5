/** Constraint baselines (docs/lifecycle.md, "Baseline"): the pure file rules, the gate, activation, and a real commit. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyBaselines, baselineNames, baselineSourceOf } from '../../hooks/baselines.js';
import { diagnostic, hasErrors } from '../../src/diagnostics.js';
import {
  buildBaseline,
  lineHash,
  matchBaseline,
  parseBaseline,
  pruneBaseline,
  serializeBaseline,
} from '../../src/lifecycle/baseline-file.js';
import { commit, constraint, head, hookedRepo, indexJson, stageIndex } from '../hooks/setup.js';
import { FIXTURES, makeRepo, runFindings } from '../helpers/repo.js';

const hit = (p: string, lineText: string) => ({ path: p, lineText });

describe('baseline file', () => {
  it('hashes the trimmed line content, so re-indenting keeps the key', () => {
    expect(lineHash('  eval(1);\r')).toBe(lineHash('eval(1);'));
    expect(lineHash('eval(1);')).not.toBe(lineHash('eval(2);'));
    expect(lineHash('x')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('counts per path and hash, sorted by path then hash, whatever the input order', () => {
    const a = buildBaseline('x', [hit('b.js', 'eval(1)'), hit('a.js', 'eval(2)'), hit('b.js', 'eval(1)')]);
    const b = buildBaseline('x', [hit('b.js', 'eval(1)'), hit('b.js', 'eval(1)'), hit('a.js', 'eval(2)')]);
    expect(serializeBaseline(a)).toBe(serializeBaseline(b));
    expect(a.violations).toEqual([
      { path: 'a.js', line_hash: lineHash('eval(2)'), count: 1 },
      { path: 'b.js', line_hash: lineHash('eval(1)'), count: 2 },
    ]);
    expect(serializeBaseline(a)).toBe(
      `{\n  "version": 1,\n  "constraint_id": "x",\n  "violations": [\n    {\n      "path": "a.js",\n      "line_hash": "${lineHash('eval(2)')}",\n ` +
        `     "count": 1\n    },\n    {\n      "path": "b.js",\n      "line_hash": "${lineHash('eval(1)')}",\n      "count": 2\n    }\n  ]\n}\n`,
    );
    const parsed = parseBaseline(serializeBaseline(a), 'f.json');
    expect(parsed.ok && parsed.baseline).toEqual(a);
  });

  it.each([
    ['{', 'not JSON'],
    ['[]', 'must be an object'],
    ['{"version":2,"constraint_id":"c","violations":[]}', 'version must be 1'],
    ['{"version":1,"violations":[]}', 'constraint_id'],
    ['{"version":1,"constraint_id":"c","violations":[{"path":"a","line_hash":"xyz","count":1}]}', 'violations[0]'],
    ['{"version":1,"constraint_id":"c","violations":[{"path":"a","line_hash":"0123456789abcdef","count":0}]}', 'violations[0]'],
  ])('refuses %s', (text, problem) => {
    const r = parseBaseline(text, 'f.json');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics[0]!.message).toContain(problem);
  });

  it.each([
    ['the recorded hit', [hit('a.js', 'eval(1)')], 1, 0],
    ['the same line moved and re-indented', [hit('a.js', '    eval(1)')], 1, 0],
    ['one more copy than recorded', [hit('a.js', 'eval(1)'), hit('a.js', 'eval(1)')], 1, 1],
    ['the same line in another file', [hit('b.js', 'eval(1)')], 0, 1],
    ['a changed line', [hit('a.js', 'eval(2)')], 0, 1],
  ])('matchBaseline: %s', (_name, hits, baselined, fresh) => {
    const b = buildBaseline('x', [hit('a.js', 'eval(1)')]);
    const r = matchBaseline(b, hits);
    expect([r.baselined.length, r.fresh.length]).toEqual([baselined, fresh]);
  });

  it('prune keeps each entry only as far as it still occurs and never adds one', () => {
    const old = buildBaseline('x', [hit('a.js', 'eval(1)'), hit('a.js', 'eval(1)'), hit('b.js', 'eval(2)')]);
    const now = buildBaseline('x', [hit('a.js', 'eval(1)'), hit('c.js', 'eval(3)')]);
    const r = pruneBaseline(old, now);
    expect(r.dropped).toBe(2);
    expect(r.baseline.violations).toEqual([{ path: 'a.js', line_hash: lineHash('eval(1)'), count: 1 }]);
  });

  it('the gate reads baselines from the source of the index, under both id forms', () => {
    expect(baselineSourceOf({ kind: 'staged' })).toEqual({ kind: 'git', prefix: ':' });
    expect(baselineSourceOf({ kind: 'range', from: 'a', to: 'b' })).toEqual({ kind: 'git', prefix: 'b:' });
    expect(baselineSourceOf({ kind: 'tree', commit: 'c' })).toEqual({ kind: 'git', prefix: 'c:' });
    expect(baselineSourceOf({ kind: 'all' })).toEqual({ kind: 'worktree' });
    expect(baselineSourceOf({ kind: 'paths', paths: ['a'], worktree: false })).toEqual({ kind: 'git', prefix: ':' });
    expect(baselineNames('c-x')).toEqual(['c-x', 'x']);
    expect(baselineNames('x')).toEqual(['x', 'c-x']);
  });

  it('applyBaselines marks the first copies of a recorded line and leaves the rest counting', () => {
    const d = (line: number) => diagnostic({ file: 'a.js', line, column: 1, ruleId: 'constraint/x', message: 'm' });
    const text = 'eval(1)\nok\neval(1)\neval(2)\n';
    const b = buildBaseline('x', [hit('a.js', 'eval(1)')]);
    const out = applyBaselines([d(1), d(3), d(4)], new Map([['a.js', text]]), new Map([['x', { file: 'b.json', baseline: b }]]));
    expect(out.map((x) => x.suppressed?.kind ?? null)).toEqual(['baseline', null, null]);
    expect(hasErrors(out.slice(0, 1))).toBe(false);
  });
});

const BAD = 'const a = 1;\nexport const y = eval("1");\n';

async function baselinedRepo() {
  const repo = makeRepo({ '.agents/constraints/index.json': indexJson(constraint('x')), 'a.js': BAD, 'b.js': 'eval(2);\neval(2);\n' });
  repo.commitAll('init');
  const r = await runFindings(['constraint', 'baseline', 'x'], { cwd: repo.root });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('x: 3 violation(s) in 2 file(s) baselined → .agents/constraints/baselines/x.json (created)');
  return repo;
}

describe('findings constraint baseline and the gate', () => {
  it('records the violations at HEAD deterministically; check --all then passes, with baselined: true in json', async () => {
    const repo = await baselinedRepo();
    const text = repo.read('.agents/constraints/baselines/x.json');
    expect(JSON.parse(text)).toEqual({
      version: 1,
      constraint_id: 'x',
      violations: [
        { path: 'a.js', line_hash: lineHash('export const y = eval("1");'), count: 1 },
        { path: 'b.js', line_hash: lineHash('eval(2);'), count: 2 },
      ],
    });
    expect((await runFindings(['constraint', 'baseline', 'x'], { cwd: repo.root })).stdout).toContain('(unchanged)');
    const json = await runFindings(['check', '--all', '--format', 'json'], { cwd: repo.root });
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(parsed).toHaveLength(3);
    expect(parsed[0]).toMatchObject({
      file: 'a.js',
      line: 2,
      suppressed: true,
      baselined: true,
      reason: 'in the baseline .agents/constraints/baselines/x.json',
    });
    const sarif = JSON.parse((await runFindings(['check', '--all', '--format', 'sarif'], { cwd: repo.root })).stdout) as {
      runs: { results: { suppressions?: unknown }[] }[];
    };
    expect(sarif.runs[0]!.results[0]!.suppressions).toEqual([
      { kind: 'external', justification: 'in the baseline .agents/constraints/baselines/x.json' },
    ]);
    const stylish = await runFindings(['check', '--all'], { cwd: repo.root });
    expect(stylish.code).toBe(0);
    expect(stylish.stdout).toContain('3 hits not counted (3 in a baseline)');
  });

  it('moved lines stay baselined; a new violation or one more copy of a baselined line blocks', async () => {
    const repo = await baselinedRepo();
    repo.write('a.js', `// header\n\n${BAD.replace('const a = 1;', 'const a = 2; // changed')}`);
    repo.git('add', 'a.js');
    expect((await runFindings(['check', '--all'], { cwd: repo.root })).code).toBe(0);
    repo.write('b.js', 'eval(2);\neval(2);\n  eval(2);\n');
    repo.git('add', 'b.js');
    const copy = await runFindings(['check', '--all', '--format', 'json'], { cwd: repo.root });
    expect(copy.code).toBe(1);
    const counted = (JSON.parse(copy.stdout) as { file: string; line: number; suppressed?: boolean }[]).filter((d) => !d.suppressed);
    expect(counted.map((d) => `${d.file}:${d.line}`)).toEqual(['b.js:3']);
    repo.write('b.js', 'eval(2);\neval(2);\n');
    repo.write('c.js', 'eval(3);\n');
    repo.git('add', 'b.js', 'c.js');
    const fresh = await runFindings(['check', '--all'], { cwd: repo.root });
    expect(fresh.code).toBe(1);
    expect(fresh.stdout).toContain('c.js:1:1  error');
  });

  it('--prune drops the entries that no longer occur and adds none', async () => {
    const repo = await baselinedRepo();
    repo.write('b.js', 'eval(2);\n');
    repo.write('c.js', 'eval(3);\n');
    repo.commitAll('fix one, add one');
    const r = await runFindings(['constraint', 'baseline', 'x', '--prune', '--json'], { cwd: repo.root });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'x', state: 'updated', violations: 2, files: 2, dropped: 1 });
    const b = JSON.parse(repo.read('.agents/constraints/baselines/x.json')) as { violations: { path: string; count: number }[] };
    expect(b.violations.map((e) => `${e.path}:${e.count}`)).toEqual(['a.js:1', 'b.js:1']);
    const none = makeRepo({ '.agents/constraints/index.json': indexJson(constraint('x')) });
    none.commitAll('init');
    expect((await runFindings(['constraint', 'baseline', 'x', '--prune'], { cwd: none.root })).code).toBe(1);
    expect((await runFindings(['constraint', 'baseline', 'c-nope'], { cwd: none.root })).code).toBe(1);
  });

  it('an unreadable baseline is a warning and every hit counts (fail closed)', async () => {
    const repo = await baselinedRepo();
    repo.write('.agents/constraints/baselines/x.json', '{ nope');
    const r = await runFindings(['check', '--all'], { cwd: repo.root });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('lifecycle/baseline-invalid');
  });
});

describe('the baseline is read from the source of the index', () => {
  it('a range reads it at its end commit; staged content reads the staged one, not the working tree', async () => {
    const repo = await baselinedRepo();
    const base = repo.git('rev-parse', 'HEAD').trim();
    repo.write('a.js', `// moved\n${BAD}`);
    repo.git('add', 'a.js');
    repo.git('commit', '-q', '-m', 'touch a.js without the baseline');
    const without = await runFindings(['check', '--from-ref', base, '--to-ref', 'HEAD'], { cwd: repo.root });
    expect(without.code).toBe(1);
    repo.git('add', '.agents/constraints/baselines/x.json');
    repo.git('commit', '-q', '-m', 'baseline');
    expect((await runFindings(['check', '--from-ref', base, '--to-ref', 'HEAD'], { cwd: repo.root })).code).toBe(0);
    // Staged mode: a baseline edited in the working tree only does not count.
    repo.write('.agents/constraints/baselines/x.json', serializeBaseline(buildBaseline('x', [hit('a.js', 'eval(9)')])));
    repo.write('a.js', `// again\n${BAD}`);
    repo.git('add', 'a.js');
    expect((await runFindings(['check', '--staged'], { cwd: repo.root })).code).toBe(0);
    repo.git('add', '.agents/constraints/baselines/x.json');
    expect((await runFindings(['check', '--staged'], { cwd: repo.root })).code).toBe(1);
  });
});

describe('activate counts only violations not in the baseline', () => {
  it('refused with a violation in the tree; activated once the baseline records it', async () => {
    const repo = makeRepo({ 'src/a.ts': 'console.log(1);\n', '.agents/config.json': '{"activation": {"min_labelled_hits": 1}}\n' });
    repo.commitAll('one');
    repo.copy(path.join(FIXTURES, 'lifecycle/measure/index.json'), '.agents/constraints/index.json');
    expect((await runFindings(['constraint', 'measure'], { cwd: repo.root })).code).toBe(0);
    const sha8 = repo.git('rev-parse', 'HEAD').trim().slice(0, 8);
    expect(
      (await runFindings(['constraint', 'label', 'f-console', `${sha8}:src/a.ts:1`, '--true-positive'], { cwd: repo.root })).code,
    ).toBe(0);
    const refused = await runFindings(['constraint', 'activate', 'f-console', '--json'], { cwd: repo.root });
    expect(refused.code).toBe(1);
    expect((JSON.parse(refused.stdout) as { diagnostics: { ruleId: string }[] }).diagnostics.map((d) => d.ruleId)).toContain(
      'lifecycle/current-violations',
    );

    expect((await runFindings(['constraint', 'baseline', 'f-console'], { cwd: repo.root })).code).toBe(0);
    const ok = await runFindings(['constraint', 'activate', 'f-console'], { cwd: repo.root });
    expect(ok.stdout).toContain('f-console: active + block');
    expect(ok.code).toBe(0);
  });

  it('a second violation outside the baseline still refuses, naming how many are baselined', async () => {
    const repo = makeRepo({ 'src/a.ts': 'console.log(1);\n', '.agents/config.json': '{"activation": {"min_labelled_hits": 1}}\n' });
    repo.commitAll('one');
    repo.copy(path.join(FIXTURES, 'lifecycle/measure/index.json'), '.agents/constraints/index.json');
    expect((await runFindings(['constraint', 'baseline', 'f-console'], { cwd: repo.root })).code).toBe(0);
    repo.write('src/b.ts', 'console.log(2);\n');
    repo.commitAll('two');
    expect((await runFindings(['constraint', 'measure'], { cwd: repo.root })).code).toBe(0);
    const r = await runFindings(['constraint', 'activate', 'f-console'], { cwd: repo.root });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /1 violation\(s\) in 1 file\(s\) of the current tree \(HEAD [0-9a-f]{8}\) not in its baseline \(1 baselined\) > 0 allowed/,
    );
    expect(r.stdout).toContain('src/b.ts:1:1');
  });
});

describe('a real commit through the installed hook', () => {
  it('a staged baseline lets a baselined violation commit; one more copy of the line is refused', async () => {
    const repo = await hookedRepo({ 'a.js': BAD });
    stageIndex(repo, constraint('x'));
    // The index and the violation are committed first (the hook would refuse it without a baseline).
    expect(commit(repo, ['--no-verify']).code).toBe(0);
    expect((await runFindings(['constraint', 'baseline', 'x'], { cwd: repo.root })).code).toBe(0);
    repo.write('a.js', `// touched\n${BAD}`);
    repo.git('add', 'a.js', '.agents/constraints/baselines/x.json');
    const ok = commit(repo, []);
    expect(ok.stdout).toContain('1 hit not counted (1 in a baseline)');
    expect(ok.code).toBe(0);
    const before = head(repo);
    repo.write('a.js', `// touched\n${BAD}export const z = eval("1");\n`);
    repo.git('add', 'a.js');
    expect(commit(repo, []).code).not.toBe(0);
    expect(head(repo)).toBe(before);
  });
});

describe('findings explain shows the baseline', () => {
  it('counts the baselined violations and names the file', async () => {
    const repo = await baselinedRepo();
    const r = await runFindings(['explain', 'x'], { cwd: repo.root });
    expect(r.stdout).toContain('baseline: 3 violation(s) in 2 file(s)  .agents/constraints/baselines/x.json');
    const json = JSON.parse((await runFindings(['explain', 'x', '--json'], { cwd: repo.root })).stdout) as {
      constraint: { baseline: unknown };
    };
    expect(json.constraint.baseline).toEqual({ file: '.agents/constraints/baselines/x.json', violations: 3, files: 2 });
  });
});
