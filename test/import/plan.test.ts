/**
 * What an import appends (src/import/plan.ts) and how the ledger folds imported findings
 * (src/review/ledger.ts): idempotent, updates never duplicates, never from an older export,
 * resolutions once, and no `updated`/`resolved` line can close a finding filed here.
 */
import { describe, expect, it } from 'vitest';
import { importedFindingId } from '../../src/import/map.js';
import { planTask, type ReadyThread } from '../../src/import/plan.js';
import { foldEvents } from '../../src/review/ledger.js';
import { planFiling } from '../../src/review/producer.js';
import type { ReviewEvent } from '../../src/review/types.js';
import { ledgerTransitionProblems } from '../../src/review/validate.js';

const SHA = 'a'.repeat(40);

function thread(key: string, over: Partial<ReadyThread> = {}, updatedAt = '2026-01-02T00:00:00Z'): ReadyThread {
  return {
    task: 'PR-1',
    taskSource: 'https://github.com/a/b/pull/1',
    findingId: importedFindingId(key),
    body: {
      file: 'src/a.ts',
      line: 3,
      severity: 'minor',
      criterion: null,
      expected: 'use the logger',
      actual: 'console.log(x);',
      fix: null,
      evidence: null,
      class: null,
    },
    source: {
      forge: 'github',
      thread: key,
      url: `https://github.com/a/b/pull/1#discussion_r${key.slice(-1)}`,
      pull: 1,
      author: 'alice',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: updatedAt,
      comments: [key.slice(-1)],
      commit: SHA,
      line: 3,
      original_commit: SHA,
      original_line: 3,
    },
    resolved: null,
    resolvedBy: null,
    resolvedAt: null,
    suggestion: null,
    explicitClass: null,
    text: 'use the logger',
    code: 'console.log(x);',
    appliedCommit: null,
    ...over,
  };
}

/** Applies a plan the way the store does: events appended, then folded. */
function apply(events: ReviewEvent[], threads: ReadyThread[]) {
  const latest = new Map<string, string>();
  for (const e of events) if (e.type === 'updated' && (latest.get(e.finding_id) ?? '') < e.at) latest.set(e.finding_id, e.at);
  const plan = planTask('PR-1', threads, foldEvents(events), latest);
  return { plan, events: [...events, ...plan.events] };
}

describe('planTask', () => {
  it('files new threads once; the same threads again append nothing', () => {
    const first = apply([], [thread('github:a/b#1'), thread('github:a/b#2')]);
    expect(first.plan).toMatchObject({ filed: 2, updated: 0, unchanged: 0 });
    expect(first.plan.events.map((e) => [e.type, (e as { round?: number }).round, (e as { index?: number }).index])).toEqual([
      ['filed', 1, 0],
      ['filed', 1, 1],
    ]);
    const again = apply(first.events, [thread('github:a/b#1'), thread('github:a/b#2')]);
    expect(again.plan).toMatchObject({ filed: 0, updated: 0, unchanged: 2, events: [] });
  });

  it('records an edit as one update of the same finding, and ignores an older export', () => {
    let s = apply([], [thread('github:a/b#1')]);
    const edited = thread(
      'github:a/b#1',
      { body: { ...thread('github:a/b#1').body, expected: 'use the logger, please' } },
      '2026-01-05T00:00:00Z',
    );
    s = apply(s.events, [edited]);
    expect(s.plan.events.map((e) => [e.type, e.at])).toEqual([['updated', '2026-01-05T00:00:00Z']]);
    expect(foldEvents(s.events)).toMatchObject([{ expected: 'use the logger, please', source: { updated_at: '2026-01-05T00:00:00Z' } }]);
    expect(apply(s.events, [edited]).plan.events).toEqual([]);
    const older = apply(s.events, [thread('github:a/b#1')]);
    expect(older.plan).toMatchObject({ older: 1, events: [] });
  });

  it('dates a re-classification of an unchanged thread after the last update, so the fold takes it', () => {
    let s = apply([], [thread('github:a/b#1')]);
    s = apply(s.events, [thread('github:a/b#1', { body: { ...thread('github:a/b#1').body, class: 'logging' } })]);
    s = apply(s.events, [thread('github:a/b#1', { body: { ...thread('github:a/b#1').body, class: 'console-log' } })]);
    expect(s.events.filter((e) => e.type === 'updated').map((e) => e.at)).toEqual(['2026-01-02T00:00:00Z', '2026-01-02T00:00:01Z']);
    expect(foldEvents(s.events)[0]!.class).toBe('console-log');
    expect(
      apply(s.events, [thread('github:a/b#1', { body: { ...thread('github:a/b#1').body, class: 'console-log' } })]).plan.events,
    ).toEqual([]);
  });

  it('records a forge resolution once, with who resolved it, and an applied suggestion as addressed by its commit', () => {
    let s = apply(
      [],
      [thread('github:a/b#1', { resolved: true, resolvedBy: 'bob' }), thread('github:a/b#2', { appliedCommit: 'b'.repeat(40) })],
    );
    expect(s.plan.events.map((e) => [e.type, e.actor])).toEqual([
      ['filed', 'alice'],
      ['resolved', 'bob'],
      ['filed', 'alice'],
      ['addressed', null],
    ]);
    expect(foldEvents(s.events).map((f) => [f.status, f.forgeResolution?.actor ?? null, f.resolution?.commit ?? null])).toEqual([
      ['resolved', 'bob', null],
      ['addressed', null, 'b'.repeat(40)],
    ]);
    s = apply(s.events, [thread('github:a/b#1', { resolved: false }), thread('github:a/b#2', { appliedCommit: 'b'.repeat(40) })]);
    expect(s.plan.events).toEqual([]);
  });
});

describe('the fold and validate on updated and resolved lines', () => {
  it('ignores them on a finding filed here, and validate names them', () => {
    const filed = planFiling({
      task: 'PR-1',
      origin: 'qa',
      taskFile: null,
      findings: [{ severity: 'major', expected: 'x is checked', actual: 'x is not checked' }],
      source: 'f.json',
      elementLines: [1],
      issues: [],
      actor: 'qa@example.com',
      at: '2026-01-01T00:00:00Z',
      existing: [],
    }).events;
    const id = filed[0]!.finding_id;
    const sneaky: ReviewEvent[] = [
      {
        event_id: 'e'.repeat(32),
        type: 'resolved',
        task: 'PR-1',
        finding_id: id,
        actor: 'x',
        at: '2026-01-02T00:00:00Z',
        commit: null,
        note: null,
      },
      {
        event_id: 'f'.repeat(32),
        type: 'updated',
        task: 'PR-1',
        finding_id: id,
        actor: 'x',
        at: '2026-01-02T00:00:00Z',
        finding: { ...filed[0]!.finding, severity: 'nit' },
        source: thread('github:a/b#1').source,
      },
    ];
    expect(foldEvents([...filed, ...sneaky])).toMatchObject([{ status: 'open', severity: 'major', source: null }]);
    expect(ledgerTransitionProblems('f', [...filed, ...sneaky]).map((d) => d.ruleId)).toEqual([
      'review/illegal-transition',
      'review/illegal-transition',
    ]);
  });
});
