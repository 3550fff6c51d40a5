/** The pure parts of the merge/push rules: judgeOperation, merged heads from git's environment, task patterns, push filters. */
import { describe, expect, it } from 'vitest';
import { judgeOperation, type OperationJudgment } from '../../hooks/operation-gate.js';
import { pushValidated, remoteSide } from '../../hooks/pre-push.js';
import { runGate } from '../../hooks/gate.js';
import { taskPatternProblem } from '../../src/config.js';
import { mergeHeadsFromEnv } from '../../src/git/hooks.js';
import { taskFromBranch } from '../../src/review/gate.js';
import { diagnostic } from '../../src/diagnostics.js';
import { constraint } from './setup.js';

const index = { schema_version: 1 as const, constraints: [constraint('active')] };
const HEAD = { name: 'HEAD', sha: 'a'.repeat(40) };
const THEIRS = { name: 'MERGE_HEAD', sha: 'b'.repeat(40) };
const gateOf = (path: string, text: string) =>
  runGate(index, [{ path, text }], { budgetMs: 250, skip: new Set(), bypass: 'git commit --no-verify', indexFile: 'i', indexText: '' });
const judgment = (staged: string, ours: string | null, theirs: string | null): OperationJudgment => ({
  operation: 'merge',
  staged: new Map([['a.js', staged]]),
  parents: [
    { parent: HEAD, files: new Map([['a.js', ours]]) },
    { parent: THEIRS, files: new Map([['a.js', theirs]]) },
  ],
  index,
  skip: new Set(),
  budgetMs: 250,
});

describe('judgeOperation', () => {
  it('keeps an introduced hit an error and makes an inherited one a warning naming the parent', async () => {
    const staged = 'x\neval(old)\neval(new)\n';
    const got = await judgeOperation(await gateOf('a.js', staged), judgment(staged, 'x\n', 'eval(old)\n'));
    expect(got.map((d) => [d.line, d.severity])).toEqual([
      [2, 'warning'],
      [3, 'error'],
    ]);
    expect(got[0]!.notes?.[0]).toMatch(/^inherited from MERGE_HEAD \(bbbbbbbbbbbb\)/);
    expect(got[0]!.notes?.some((n) => n.includes('this blocks'))).toBe(false);
    expect(got[1]!.notes?.[0]).toBe("introduced by this merge: in neither parent's version (HEAD, MERGE_HEAD), so it blocks");
    expect(got[1]!.notes?.at(-1)).toBe('findings explain active');
  });

  it('a non-constraint problem is inherited only when the staged file equals a parent version; drift always blocks', async () => {
    const reg = diagnostic({ file: 'a.js', line: 2, ruleId: 'registry/duplicate-dedup-key', message: 'dup' });
    const drift = diagnostic({ file: 'a.js', ruleId: 'compiler/drift', message: 'stale' });
    expect((await judgeOperation([reg, drift], judgment('same\n', 'other\n', 'same\n'))).map((d) => [d.ruleId, d.severity])).toEqual([
      ['compiler/drift', 'error'],
      ['registry/duplicate-dedup-key', 'warning'],
    ]);
    expect((await judgeOperation([reg], judgment('merged\n', 'one\n', 'two\n')))[0]!.severity).toBe('error');
  });
});

describe('helpers', () => {
  it('mergeHeadsFromEnv reads the GITHEAD_<sha> variables git sets for pre-merge-commit', () => {
    expect(mergeHeadsFromEnv({ [`GITHEAD_${'c'.repeat(40)}`]: 'side', GITHEAD_x: 'no', PATH: '/bin' })).toEqual(['c'.repeat(40)]);
  });
  it('taskPatternProblem: a regex with a capture group, or why not', () => {
    expect(taskPatternProblem('^task-(.+)$')).toBeNull();
    expect(taskPatternProblem('(')).toMatch(/not a valid regular expression/);
    expect(taskPatternProblem('^feature/')).toMatch(/no capture group/);
    expect(taskPatternProblem(3)).toBe('must be a string');
  });
  it('taskFromBranch: HEAD, a bare sha and non-branch refs name no task', () => {
    const def = '^(?:.*/)?([A-Za-z0-9][A-Za-z0-9._-]{0,127})$';
    expect(taskFromBranch('HEAD', def)).toBeNull();
    expect(taskFromBranch('d'.repeat(40), def)).toBeNull();
    expect(taskFromBranch('refs/remotes/origin/T-1', def)).toBeNull();
    expect(taskFromBranch('refs/heads/T-1', def)).toBe('T-1');
  });
  it('remoteSide and pushValidated', () => {
    expect(remoteSide({ kind: 'range', from: 'f', to: 't' })).toBe('f');
    expect(remoteSide({ kind: 'tree', commit: 't' })).toBeNull();
    expect(
      [
        '.agents/findings/registry.jsonl',
        '.agents/findings/f-1.md',
        '.agents/reviews/T-1.md',
        '.agents/reviews/T-1.jsonl',
        '.agents/config.json',
        'docs/x.md',
      ].filter(pushValidated),
    ).toEqual(['.agents/findings/registry.jsonl', '.agents/findings/f-1.md', '.agents/reviews/T-1.jsonl', '.agents/config.json']);
  });
});
