/**
 * `findings review task`'s pure half (src/review/task-file.ts): numbering acceptance criteria and
 * rendering the task file. The write, under the task's lock, is src/review/store.ts's
 * `updateTaskFile`, covered end to end in cli.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { criterionTexts, extendTask, renderTaskFile } from '../../src/review/task-file.js';

describe('extendTask', () => {
  it('numbers new criteria AC1, AC2, … in the order given', () => {
    expect(extendTask('T-1', null, { criteria: ['first', 'second'] })).toEqual({
      id: 'T-1',
      criteria: [
        { id: 'AC1', text: 'first' },
        { id: 'AC2', text: 'second' },
      ],
    });
  });

  it('continues after the highest ACn (gaps and hand-written ids are kept) and never repeats a text', () => {
    const current = {
      id: 'T-1',
      criteria: [
        { id: 'AC4', text: 'four' },
        { id: 'perf', text: 'fast' },
      ],
    };
    expect(extendTask('T-1', current, { criteria: ['fast', 'five', 'five'] }).criteria).toEqual([
      { id: 'AC4', text: 'four' },
      { id: 'perf', text: 'fast' },
      { id: 'AC5', text: 'five' },
    ]);
  });

  it('keeps the recorded owner, takes a new objective, and fills either when absent', () => {
    const current = { id: 'T-1', criteria: [], owner: 'a@x', objective: 'old' };
    expect(extendTask('T-1', current, { criteria: [], owner: 'b@x', objective: 'new' })).toMatchObject({ owner: 'a@x', objective: 'new' });
    expect(extendTask('T-1', { id: 'T-1', criteria: [] }, { criteria: [], owner: 'b@x' })).toEqual({
      id: 'T-1',
      criteria: [],
      owner: 'b@x',
    });
    expect(extendTask('T-1', current, { criteria: [] })).toMatchObject({ owner: 'a@x', objective: 'old' });
  });
});

describe('criterionTexts', () => {
  it('trims and drops empty texts', () => {
    expect(criterionTexts([' a ', '', '  ', 'b'])).toEqual(['a', 'b']);
  });
});

describe('renderTaskFile', () => {
  it('writes id, owner, objective, criteria in that order, 2-space JSON, final newline', () => {
    const text = renderTaskFile({ criteria: [{ text: 'first', id: 'AC1' }], objective: 'o', owner: 'a@x', id: 'T-1' });
    expect(text).toBe(
      '{\n  "id": "T-1",\n  "owner": "a@x",\n  "objective": "o",\n  "criteria": [\n    {\n      "id": "AC1",\n      "text": "first"\n    }\n  ]\n}\n',
    );
  });
});
