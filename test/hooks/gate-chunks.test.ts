import { describe, expect, it } from 'vitest';
import { runGate, type CheckedFile, type GateOptions } from '../../hooks/gate.js';
import { chunkSizeFor, runGateInChunks } from '../../hooks/gate-chunks.js';
import { progressLine } from '../../src/lifecycle/progress.js';
import type { ConstraintIndex } from '../../src/types.js';
import { constraint, indexJson } from './setup.js';

const index: ConstraintIndex = {
  schema_version: 1,
  constraints: [
    constraint('c-eval'),
    constraint('c-todo', { status: 'shadow', pattern: 'TODO' }),
    // An unsafe pattern: an index-level evaluation error whenever a covered file is checked.
    constraint('c-broken', { pattern: '(a+)+' }),
  ],
} as ConstraintIndex;
const options: GateOptions = {
  budgetMs: 250,
  skip: new Set(),
  bypass: null,
  indexFile: '.agents/constraints/index.json',
  indexText: indexJson(...index.constraints),
};
const files: CheckedFile[] = Array.from({ length: 7 }, (_, i) => ({
  path: `src/f${i}.js`,
  text: i % 2 === 0 ? `eval(x);\n// TODO ${i}\n` : 'ok();\n',
}));

describe('runGateInChunks (check --all over many files)', () => {
  it('gives exactly the one-pass verdict, the index-level error once', async () => {
    const whole = await runGate(index, files, options);
    const chunked = await runGateInChunks(index, files, options, { chunkSize: 2 });
    expect(chunked).toEqual(whole);
    expect(chunked.filter((d) => d.file === options.indexFile)).toHaveLength(1);
    expect(chunked.filter((d) => d.ruleId === 'constraint/c-eval')).toHaveLength(4);
  });

  it('split across a worker thread: the same verdict, held entries included', async () => {
    const held = new Map([[index.constraints[1]!, 'held: judged as active because the index before the change had it so']]);
    const whole = await runGate(index, files, { ...options, held });
    const lines: string[] = [];
    const split = await runGateInChunks(
      index,
      files,
      { ...options, held },
      { chunkSize: 2, parallelFrom: 0, progressAfterMs: 0, onProgress: (l) => lines.push(l) },
    );
    expect(split).toEqual(whole);
    expect(split.some((d) => d.notes?.some((n) => n.startsWith('held:')))).toBe(true);
    expect(lines.at(-1)).toMatch(/^checking: 7\/7 files/);
  });

  it('reports done/total, rate and ETA once the run has taken long enough', async () => {
    const lines: string[] = [];
    await runGateInChunks(index, files, options, { chunkSize: 3, progressAfterMs: 0, onProgress: (l) => lines.push(l) });
    expect(lines.map((l) => l.replace(/, \d+ files\/s, ETA \d+s$/, ''))).toEqual([
      'checking: 3/7 files',
      'checking: 6/7 files',
      'checking: 7/7 files',
    ]);
    const quiet: string[] = [];
    await runGateInChunks(index, files, options, { chunkSize: 3, progressAfterMs: 60_000, onProgress: (l) => quiet.push(l) });
    expect(quiet).toEqual([]);
  });

  it('chunks of at least 500 files, about 20 of them', () => {
    expect(chunkSizeFor(100)).toBe(500);
    expect(chunkSizeFor(100_000)).toBe(5000);
    expect(progressLine(50, 100, 1000, { verb: 'checking', unit: 'files' })).toBe('checking: 50/100 files, 50 files/s, ETA 1s');
    expect(progressLine(50, 100, 1000)).toBe('measuring: 50/100 commits, 50 commits/s, ETA 1s');
  });
});
