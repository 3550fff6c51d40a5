import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config.js';
import { parseConstraintIndex } from '../../src/constraints/index-file.js';
import { activationRefusals, formatRatio, meetsPrecision } from '../../src/lifecycle/activate.js';
import { carryLabels, type Measurement, type MeasuredHit } from '../../src/lifecycle/measurement.js';
import type { ConstraintEntry } from '../../src/types.js';
import { FIXTURES, makeRepo, runFindings } from '../helpers/repo.js';
import { readFileSync } from 'node:fs';

const INDEX = (
  parseConstraintIndex(readFileSync(path.join(FIXTURES, 'lifecycle/measure/index.json'), 'utf8')) as {
    ok: true;
    index: { constraints: ConstraintEntry[] };
  }
).index;
const ENTRY = INDEX.constraints[0]!;
const SHA = 'a'.repeat(40);

function measurement(tp: number, fp: number, unlabelled = 0, over: Partial<Measurement> = {}): Measurement {
  const hits: MeasuredHit[] = [];
  const add = (n: number, label?: 'true_positive' | 'false_positive'): void => {
    for (let i = 0; i < n; i += 1)
      hits.push({
        id: `aaaaaaaa:src/x.ts:${hits.length + 1}`,
        commit: SHA,
        path: 'src/x.ts',
        line: hits.length + 1,
        seen: 0,
        ...(label ? { label } : {}),
      });
  };
  add(tp, 'true_positive');
  add(fp, 'false_positive');
  add(unlabelled);
  return {
    version: 2,
    constraint_id: ENTRY.id,
    measured_at_commit: SHA,
    range: { since: null, commits: null },
    commits: 10,
    detector: ENTRY.detector,
    applies_to: ENTRY.applies_to,
    samples: 50,
    hits,
    errors: [],
    ...over,
  };
}

const refusals = (m: Measurement, entry: ConstraintEntry = ENTRY, scan = { files: 3, violations: [], errors: [] }) =>
  activationRefusals(entry, { kind: 'ok', measurement: m }, scan, DEFAULT_CONFIG, SHA).map((d) => `${d.ruleId}: ${d.message}`);

describe('activation conditions', () => {
  it('accepts at 95% with 20 labelled hits and a clean tree', () => {
    expect(refusals(measurement(19, 1, 5))).toEqual([]);
    expect(refusals(measurement(20, 0))).toEqual([]);
  });
  it('names each failed condition and by how much', () => {
    expect(refusals(measurement(18, 2))).toEqual([
      'lifecycle/low-precision: cannot activate f-console: precision 0.90 (95% CI 0.70–0.97) < 0.95 (18 of 20 labelled hits true)',
    ]);
    expect(refusals(measurement(12, 0, 7))).toEqual([
      'lifecycle/too-few-labels: cannot activate f-console: 12 labelled hit(s) < 20 required (8 more needed; 7 hit(s) unlabelled)',
    ]);
    expect(refusals(measurement(19, 1), { ...ENTRY, status: 'active', enforcement_mode: 'block' })[0]).toContain(
      'its status is "active"; only shadow constraints can be activated',
    );
    expect(refusals(measurement(19, 1), { ...ENTRY, detector: { kind: 'regex', pattern: 'console\\.' } })[0]).toContain(
      'lifecycle/stale-measurement',
    );
    const dirty = refusals(measurement(20, 0), ENTRY, {
      files: 3,
      violations: [{ path: 'src/a.ts', line: 4, column: 3, match: 'console.log(' }] as never,
      errors: [],
    });
    expect(dirty).toEqual([
      'lifecycle/current-violations: cannot activate f-console: 1 violation(s) in 1 file(s) of the current tree (HEAD aaaaaaaa) > 0 allowed',
      'lifecycle/current-violations: cannot activate f-console: existing violation at HEAD aaaaaaaa',
    ]);
    expect(activationRefusals(ENTRY, { kind: 'missing' }, null, DEFAULT_CONFIG, SHA)[0]!.message).toContain(
      'run `findings constraint measure f-console`',
    );
  });
  it('honours min_labelled_hits and min_precision from the config', () => {
    const config = { ...DEFAULT_CONFIG, minLabelledHits: 5, minPrecision: 0.8 };
    expect(activationRefusals(ENTRY, { kind: 'ok', measurement: measurement(4, 1) }, null, config, SHA)).toEqual([]);
  });
  it('compares precision without floating-point surprises and never prints a value below the bar as equal to it', () => {
    expect(meetsPrecision(19, 20, 0.95)).toBe(true);
    expect(meetsPrecision(57, 60, 0.95)).toBe(true);
    expect(meetsPrecision(56, 59, 0.95)).toBe(false);
    expect(formatRatio(0.9)).toBe('0.90');
    expect(formatRatio(1)).toBe('1.00');
    expect(formatRatio(0.94999)).toBe('0.9499');
    expect(formatRatio(56 / 59)).toBe('0.9491');
  });
  it('carries labels to hits found again and counts the dropped ones', () => {
    const prev = measurement(2, 1).hits;
    const next = [prev[0]!, prev[2]!].map(({ label: _l, ...h }) => h);
    const r = carryLabels(next, prev);
    expect(r.hits.map((h) => h.label)).toEqual(['true_positive', 'false_positive']);
    expect(r.dropped).toBe(1);
  });
  it.each([
    ['same detector, commit outside the new range: kept with its label', true, false, 0, 1],
    ['same detector, commit measured but the hit is gone: dropped', true, true, 1, 0],
    ['detector changed, commit outside the new range: dropped', false, false, 1, 0],
  ])('%s', (_name, same, measured, dropped, kept) => {
    const prev: MeasuredHit[] = [
      { id: 'aaaaaaaa:src/a.ts:1', commit: 'a'.repeat(40), path: 'src/a.ts', line: 1, seen: 0, label: 'true_positive' },
      { id: 'aaaaaaaa:src/a.ts:2', commit: 'a'.repeat(40), path: 'src/a.ts', line: 2, seen: 0 },
      { id: 'bbbbbbbb:src/b.ts:1', commit: 'b'.repeat(40), path: 'src/b.ts', line: 1, seen: 0, label: 'false_positive' },
    ];
    const next: MeasuredHit[] = [{ id: 'bbbbbbbb:src/b.ts:1', commit: 'b'.repeat(40), path: 'src/b.ts', line: 1, seen: 0 }];
    const commits = new Set(['b'.repeat(40), ...(measured ? ['a'.repeat(40)] : [])]);
    const r = carryLabels(next, prev, { measuredCommits: commits, sameDetector: same });
    expect({ dropped: r.dropped, kept: r.keptOutOfRange }).toEqual({ dropped, kept });
    expect(r.hits.map((h) => [h.id, h.label])).toEqual([
      ['bbbbbbbb:src/b.ts:1', 'false_positive'],
      ...(kept ? [['aaaaaaaa:src/a.ts:1', 'true_positive']] : []),
    ]);
  });
});

describe('label, activate and retire from the command line', () => {
  it('reports unknown hits (exit 1) but labels the known ones; refuses a bad invocation (exit 2)', async () => {
    const repo = makeRepo({ 'src/a.ts': 'console.log(1);\n' });
    repo.commitAll('one');
    repo.copy(path.join(FIXTURES, 'lifecycle/measure/index.json'), '.agents/constraints/index.json');
    expect((await runFindings(['constraint', 'measure'], { cwd: repo.root })).code).toBe(0);
    const sha8 = repo.git('rev-parse', 'HEAD').trim().slice(0, 8);
    const r = await runFindings(['constraint', 'label', 'f-console', `${sha8}:src/a.ts:1`, 'nope:x:1', '--false-positive'], {
      cwd: repo.root,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('no hit "nope:x:1"');
    expect(r.stdout).toContain('1 hit(s) labelled');
    const viaStdin = await runFindings(['constraint', 'label', 'f-console', '-', '--true-positive'], {
      cwd: repo.root,
      stdin: `${sha8}:src/a.ts:1\n`,
    });
    expect(viaStdin.code).toBe(0);
    expect(viaStdin.stdout).toContain('1 true, 0 false');
    expect((await runFindings(['constraint', 'label', 'f-console', 'x'], { cwd: repo.root })).code).toBe(2);
    expect(
      (await runFindings(['constraint', 'label', 'f-console', 'x', '--true-positive', '--false-positive'], { cwd: repo.root })).code,
    ).toBe(2);
    expect((await runFindings(['constraint'], { cwd: repo.root })).code).toBe(2);
    const shadowRetire = await runFindings(['constraint', 'retire', 'f-console'], { cwd: repo.root });
    expect(shadowRetire.code).toBe(1);
    expect(shadowRetire.stdout).toContain('its status is "shadow"; only active constraints can be retired');
    const few = await runFindings(['constraint', 'activate', 'f-console', '--json'], { cwd: repo.root });
    expect(few.code).toBe(1);
    const rules = (JSON.parse(few.stdout) as { diagnostics: { ruleId: string }[] }).diagnostics.map((d) => d.ruleId);
    expect(rules).toEqual(['lifecycle/too-few-labels', 'lifecycle/current-violations', 'lifecycle/current-violations']);
  });
  it('exits 2 for an index that is not valid JSON', async () => {
    const repo = makeRepo({ '.agents/constraints/index.json': '{ nope' });
    repo.commitAll('one');
    expect((await runFindings(['constraint', 'activate', 'x'], { cwd: repo.root })).code).toBe(2);
    expect((await runFindings(['constraint', 'measure'], { cwd: repo.root })).code).toBe(2);
  });
});
