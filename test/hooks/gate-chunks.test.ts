import { describe, expect, it } from 'vitest';
import { runGate, type CheckedFile, type GateOptions } from '../../hooks/gate.js';
import { chunkSizeFor, runGateInChunks } from '../../hooks/gate-chunks.js';
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
    const counts: string[] = [];
    const split = await runGateInChunks(
      index,
      files,
      { ...options, held },
      { chunkSize: 2, parallelFrom: 0, onProgress: (done, total) => counts.push(`${done}/${total}`) },
    );
    expect(split).toEqual(whole);
    expect(split.some((d) => d.notes?.some((n) => n.startsWith('held:')))).toBe(true);
    expect(counts.at(-1)).toBe('7/7');
  });

  it('reports done/total after each chunk (the reporter, src/output/progress.ts, decides what to show and when)', async () => {
    const counts: string[] = [];
    await runGateInChunks(index, files, options, { chunkSize: 3, onProgress: (done, total) => counts.push(`${done}/${total}`) });
    expect(counts).toEqual(['3/7', '6/7', '7/7']);
  });

  it('chunks of at least 500 files, about 20 of them', () => {
    expect(chunkSizeFor(100)).toBe(500);
    expect(chunkSizeFor(100_000)).toBe(5000);
  });
});
