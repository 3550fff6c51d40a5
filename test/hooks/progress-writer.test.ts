/**
 * `check --all`'s progress line, drawn by the one progress reporter (src/output/progress.ts, as
 * `constraint measure`'s): on a terminal stderr only, rewritten in place, erased before the report.
 */
import { describe, expect, it } from 'vitest';
import { runGateInChunks } from '../../hooks/gate-chunks.js';
import { progressReporter } from '../../src/output/progress.js';
import type { ConstraintIndex } from '../../src/types.js';
import { constraint, indexJson } from './setup.js';

const sink = (isTTY?: boolean) => {
  const written: string[] = [];
  return { written, stderr: { ...(isTTY === undefined ? {} : { isTTY }), write: (s: string) => written.push(s) } };
};
const checking = { verb: 'checking', unit: 'files', afterMs: 0 } as const;

describe('check --all progress', () => {
  it('writes nothing at all when stderr is not a terminal (pipes, files, CI logs)', () => {
    for (const { written, stderr } of [sink(), sink(false)]) {
      const p = progressReporter(stderr, 2, checking);
      p.update(1);
      p.update(2);
      p.end();
      expect(written).toEqual([]);
    }
  });

  it('on a terminal: each line replaces the previous one, and the last is erased before the report', () => {
    const { written, stderr } = sink(true);
    let t = 0;
    const p = progressReporter(stderr, 2, { ...checking, now: () => t });
    t = 1000;
    p.update(1);
    t = 2000;
    p.update(2);
    p.end();
    expect(written).toEqual([
      '\r\x1b[Kchecking: 1/2 files, 1 files/s, ETA 1s',
      '\r\x1b[Kchecking: 2/2 files, 1 files/s, ETA 0s',
      '\r\x1b[K',
    ]);
  });

  it('carries done/total, rate and ETA from a chunked check', async () => {
    const index = { schema_version: 1, constraints: [constraint('c-eval')] } as ConstraintIndex;
    const files = Array.from({ length: 5 }, (_, i) => ({ path: `src/f${i}.js`, text: i === 2 ? 'eval(x)\n' : 'ok\n' }));
    const { written, stderr } = sink(true);
    const p = progressReporter(stderr, 0, checking);
    const options = {
      budgetMs: 250,
      skip: new Set<string>(),
      bypass: null,
      indexFile: '.agents/constraints/index.json',
      indexText: indexJson(...index.constraints),
    };
    await runGateInChunks(index, files, options, { chunkSize: 2, onProgress: (done, total) => p.update(done, total) });
    p.end();
    expect(written.slice(0, -1).map((w) => w.replace(/\d+ files\/s, ETA \d+s$/, 'R, ETA E'))).toEqual([
      '\r\x1b[Kchecking: 2/5 files, R, ETA E',
      '\r\x1b[Kchecking: 4/5 files, R, ETA E',
      '\r\x1b[Kchecking: 5/5 files, R, ETA E',
    ]);
    expect(written.at(-1)).toBe('\r\x1b[K');
  });
});
