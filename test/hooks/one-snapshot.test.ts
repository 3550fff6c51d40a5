/**
 * One hook run, one of each (docs/hooks.md "Speed"): `findings hook pre-commit` builds one staged
 * snapshot, lists and reads it once, parses the constraint index once and compiles each pattern
 * once. Counted by wrapping the real functions (each still runs: a real repository, real git).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeRepo } from '../helpers/repo.js';
import { constraint, stageIndex } from './setup.js';

const { counted, count } = vi.hoisted(() => {
  const counted = { calls: [] as [string, unknown][] };
  /** The real function, recording each call's name and a key (what it was called for). */
  const count =
    <A extends unknown[], R>(name: string, fn: (...args: A) => R, key: (...args: A) => unknown = () => null) =>
    (...args: A): R => {
      counted.calls.push([name, key(...args)]);
      return fn(...args);
    };
  return { counted, count };
});

vi.mock('../../hooks/snapshot.js', async (original) => {
  const m = await original<typeof import('../../hooks/snapshot.js')>();
  return { ...m, stagedSnapshot: count('stagedSnapshot', m.stagedSnapshot) };
});
vi.mock('../../hooks/sources.js', async (original) => {
  const m = await original<typeof import('../../hooks/sources.js')>();
  return { ...m, collect: count('collect', m.collect) };
});
vi.mock('../../src/git/core.js', async (original) => {
  const m = await original<typeof import('../../src/git/core.js')>();
  return {
    ...m,
    readObjects: count('readObjects', m.readObjects),
    indexEntries: count('indexEntries', m.indexEntries),
  };
});
vi.mock('../../src/constraints/index-file.js', async (original) => {
  const m = await original<typeof import('../../src/constraints/index-file.js')>();
  return { ...m, parseConstraintIndex: count('parseConstraintIndex', m.parseConstraintIndex) };
});
vi.mock('../../src/match/detector.js', async (original) => {
  const m = await original<typeof import('../../src/match/detector.js')>();
  return { ...m, compileDetector: count('compileDetector', m.compileDetector, (spec) => spec.pattern) };
});

const { preCommit } = await import('../../hooks/pre-commit.js');

const times = (name: string): number => counted.calls.filter(([n]) => n === name).length;
const keys = (name: string): unknown[] => counted.calls.filter(([n]) => n === name).map(([, k]) => k);

afterEach(() => {
  counted.calls.length = 0;
});

/** A repository whose HEAD has three constraints (one change-scoped), with `files` staged. */
function repoWith(files: Record<string, string>) {
  const repo = makeRepo();
  stageIndex(
    repo,
    constraint('c-eval'),
    constraint('c-timer', { pattern: 'setTimeout\\(\\s*"' }),
    constraint('c-added', { pattern: '\\bdebugger\\b', scope: 'added-lines' }),
  );
  repo.commitAll('index');
  for (const [rel, text] of Object.entries(files)) repo.write(rel, text);
  repo.git('add', '.');
  counted.calls.length = 0;
  return repo;
}

const PATTERNS = ['\\beval\\(', '\\bdebugger\\b', 'setTimeout\\(\\s*"'].sort();

describe('one hook run: one snapshot, one parse of the index, one compile per pattern', () => {
  it('a clean commit under the index HEAD has: one snapshot, one cat-file, one parse, one compile each', async () => {
    const repo = repoWith({ 'src/a.js': 'ok();\n', 'src/b.js': 'fine();\n' });
    const outcome = await preCommit(repo.root, {});
    expect(outcome).toEqual({ diagnostics: [], lines: [], blocked: false });

    expect(times('stagedSnapshot')).toBe(1);
    expect(times('collect')).toBe(1);
    expect(times('readObjects')).toBe(1);
    expect(times('indexEntries')).toBe(0); // nothing asked for the whole index
    // The same index text staged and at HEAD: parsed once.
    expect(times('parseConstraintIndex')).toBe(1);
    expect(keys('compileDetector').sort()).toEqual(PATTERNS);
  });

  it('a blocked commit: still one snapshot, one parse and one compile per pattern', async () => {
    const repo = repoWith({ 'src/a.js': 'ok();\n', 'src/b.js': 'eval(x);\n', 'src/c.js': 'debugger;\n' });
    const outcome = await preCommit(repo.root, {});
    expect(outcome.diagnostics.map((d) => [d.file, d.ruleId])).toEqual([
      ['src/b.js', 'constraint/eval'],
      ['src/c.js', 'constraint/added'],
    ]);
    expect(times('stagedSnapshot')).toBe(1);
    expect(times('collect')).toBe(1);
    expect(times('parseConstraintIndex')).toBe(1);
    expect(keys('compileDetector').sort()).toEqual(PATTERNS);
  });

  it('a commit that changes the index: each version parsed once, each pattern compiled once', async () => {
    const repo = makeRepo();
    stageIndex(repo, constraint('c-eval'));
    repo.commitAll('index');
    stageIndex(repo, constraint('c-eval'), constraint('c-timer', { pattern: 'setTimeout\\(\\s*"' }));
    repo.write('src/a.js', 'ok();\n');
    repo.git('add', 'src');
    counted.calls.length = 0;

    await preCommit(repo.root, {});
    expect(times('stagedSnapshot')).toBe(1);
    expect(times('collect')).toBe(1);
    // The gate parses each version once (HEAD's, the staged one); validation (steps 1-2) reads the
    // staged one for its own rules (compiler/validate-index.ts), so three in all.
    expect(times('parseConstraintIndex')).toBe(3);
    expect(keys('compileDetector').sort()).toEqual(['\\beval\\(', 'setTimeout\\(\\s*"'].sort());
  });
});
