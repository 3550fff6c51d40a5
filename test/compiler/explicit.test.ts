/**
 * Explicit assertions for compiler behaviours that golden files (regenerated from the code's own
 * output) cannot pin: a negative fixture that matches gives no constraint, a superseded finding
 * gives no outputs, and the index is ordered by constraint id.
 */
import { describe, expect, it } from 'vitest';
import { compileJson, EVAL, indexIds, mechanical, REG, withFixtures } from './entries.js';
import { makeRepo } from '../helpers/repo.js';

describe('compiler behaviours, asserted directly', () => {
  it('a negative fixture that matches gives no constraint (replay refuses it)', async () => {
    const repo = makeRepo({ '.agents/findings/f-m.md': mechanical('f-m', EVAL) });
    withFixtures(repo, 'f-m', 'eval(1)\n', 'eval(2) — the negative control matches too\n');
    const r = await compileJson(repo);
    expect(r.diagnostics.filter((d) => d.ruleId === 'compiler/replay').map((d) => d.file)).toEqual(['.agents/findings/f-m.md']);
    expect(indexIds(repo)).toEqual([]);
    // The same finding with a clean negative control qualifies: the refusal above is the negative's doing.
    withFixtures(repo, 'f-m');
    await compileJson(repo);
    expect(indexIds(repo)).toEqual(['f-m']);
  });

  it('a superseded finding gives no planning rule, pre-mortem check or constraint', async () => {
    const repo = makeRepo({
      '.agents/findings/registry.jsonl': REG('f-new') + REG('f-old', { status: 'superseded', superseded_by: 'f-new' }),
      '.agents/findings/f-m.md': mechanical('f-m', EVAL).replace('status: "active"', 'status: "superseded"\nsuperseded_by: "f-new"'),
    });
    withFixtures(repo, 'f-m');
    const r = await compileJson(repo);
    const written = r.changes.map((c) => c.path);
    expect(written.filter((p) => /\/f-(?:old|m)\.md$/.test(p) && !p.startsWith('.agents/findings/'))).toEqual([]);
    expect(written).toContain('.agents/planning-rules/f-new.md');
    for (const id of ['f-old', 'f-m']) {
      expect(repo.exists(`.agents/planning-rules/${id}.md`)).toBe(false);
      expect(repo.exists(`.agents/pre-mortem-checks/${id}.md`)).toBe(false);
    }
    expect(indexIds(repo)).toEqual([]);
  });

  it('orders the index by constraint id (code units), not by the order of the source files', async () => {
    // `f-a-b.md` lists before `f-a.md` ('-' < '.'), but `f-a` sorts before `f-a-b`.
    const ids = ['f-b', 'f-10', 'f-a', 'f-a-b', 'f-9', 'f-C'];
    const repo = makeRepo();
    for (const id of ids) {
      repo.write(`.agents/findings/${id}.md`, mechanical(id, EVAL));
      withFixtures(repo, id);
    }
    await compileJson(repo);
    expect(indexIds(repo)).toEqual(['f-10', 'f-9', 'f-C', 'f-a', 'f-a-b', 'f-b']);
  });
});
