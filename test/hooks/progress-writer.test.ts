/** `check --all`'s progress line: on a terminal stderr only, rewritten in place, cleared before the report. */
import { describe, expect, it } from 'vitest';
import { runGateInChunks } from '../../hooks/gate-chunks.js';
import { progressWriter } from '../../src/cli/progress-writer.js';
import type { ConstraintIndex } from '../../src/types.js';
import { constraint, indexJson } from './setup.js';

const sink = (isTTY?: boolean) => {
  const written: string[] = [];
  return { written, stderr: { ...(isTTY === undefined ? {} : { isTTY }), write: (s: string) => written.push(s) } };
};

describe('progressWriter', () => {
  it('writes nothing at all when stderr is not a terminal (pipes, files, CI logs)', () => {
    expect(progressWriter(sink().stderr)).toBeUndefined();
    expect(progressWriter(sink(false).stderr)).toBeUndefined();
  });

  it('on a terminal: each line replaces the previous one, and the last is erased before the report', () => {
    const { written, stderr } = sink(true);
    const p = progressWriter(stderr)!;
    p.clear();
    expect(written).toEqual([]);
    p.update('checking: 1/2 files');
    p.update('checking: 2/2 files');
    p.clear();
    expect(written).toEqual(['\r\x1b[Kchecking: 1/2 files', '\r\x1b[Kchecking: 2/2 files', '\r\x1b[K']);
  });

  it('carries done/total, rate and ETA from a chunked check', async () => {
    const index = { schema_version: 1, constraints: [constraint('c-eval')] } as ConstraintIndex;
    const files = Array.from({ length: 5 }, (_, i) => ({ path: `src/f${i}.js`, text: i === 2 ? 'eval(x)\n' : 'ok\n' }));
    const { written, stderr } = sink(true);
    const p = progressWriter(stderr)!;
    const options = {
      budgetMs: 250,
      skip: new Set<string>(),
      bypass: null,
      indexFile: '.agents/constraints/index.json',
      indexText: indexJson(...index.constraints),
    };
    await runGateInChunks(index, files, options, { chunkSize: 2, progressAfterMs: 0, onProgress: p.update });
    p.clear();
    expect(written.slice(0, -1).map((w) => w.replace(/\d+ files\/s, ETA \d+s$/, 'R, ETA E'))).toEqual([
      '\r\x1b[Kchecking: 2/5 files, R, ETA E',
      '\r\x1b[Kchecking: 4/5 files, R, ETA E',
      '\r\x1b[Kchecking: 5/5 files, R, ETA E',
    ]);
    expect(written.at(-1)).toBe('\r\x1b[K');
  });
});
