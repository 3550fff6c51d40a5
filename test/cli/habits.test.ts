/** Ecosystem habits of the CLI: "did you mean", colours by FORCE_COLOR / NO_COLOR. */
import { describe, expect, it } from 'vitest';
import { colorEnabled } from '../../src/output/paint.js';
import { editDistance, suggestions } from '../../src/suggest.js';
import { makeRepo, spawnFindings, tempDir } from '../helpers/repo.js';
import { constraint, stageIndex } from '../hooks/setup.js';

describe('mistyped commands', () => {
  it.each([
    ['valdate', ['validate']],
    ['fial', ['fail']],
    ['pre-comit', ['pre-commit']],
    ['comp', ['compile']],
    ['xyz', []],
    ['chek', ['check']],
  ])('suggests for %s', (word, expected) => {
    const known = ['validate', 'fail', 'pr-fail', 'pre-commit', 'pre-push', 'compile', 'check', 'cite', 'explain'];
    expect(suggestions(word, known)).toEqual(expected);
  });
  it('counts an adjacent swap as one edit', () => {
    expect(editDistance('fial', 'fail')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it.each([
    [['valdate'], 'findings: unknown command "valdate"; did you mean "validate"?'],
    [['review', 'fial'], 'findings review: unknown command "fial"; did you mean "fail"?'],
    [['hook', 'pre-comit'], 'findings hook: unknown command "pre-comit"; did you mean "pre-commit"?'],
    [['constraint', 'mesure'], 'findings constraint: unknown command "mesure"; did you mean "measure"?'],
  ])('findings %j exits 2 with a suggestion (real bin)', async (args, message) => {
    const r = await spawnFindings(args, { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toContain(message);
    expect(r.stdout).toBe('');
  });
});

describe('a command group without its subcommand', () => {
  it.each([
    [['hook'], 'findings hook: give a subcommand: pre-commit, pre-merge-commit, pre-push'],
    [['review'], 'findings review: give a subcommand: task,'],
  ])('findings %j exits 2 with one line naming the subcommands (real bin)', async (args, message) => {
    const r = await spawnFindings(args, { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});

describe('colours', () => {
  it.each([
    [false, {}, false],
    [true, {}, true],
    [false, { FORCE_COLOR: '1' }, true],
    [false, { FORCE_COLOR: '' }, true],
    [true, { FORCE_COLOR: '0' }, false],
    [true, { FORCE_COLOR: 'false' }, false],
    [true, { NO_COLOR: '1' }, false],
    [false, { NO_COLOR: '1', FORCE_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true],
  ])('isTTY=%s env=%j → %s', (tty, env, expected) => {
    expect(colorEnabled(tty, env)).toBe(expected);
  });

  it('FORCE_COLOR colours piped output; NO_COLOR still wins (real bin)', async () => {
    const repo = makeRepo({ 'a.js': 'eval("1");\n' });
    stageIndex(repo, constraint('active'));
    repo.git('add', 'a.js');
    const forced = await spawnFindings(['check'], { cwd: repo.root, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.code).toBe(1);
    expect(forced.stdout).toContain('\u001b[31merror\u001b[39m');
    const piped = await spawnFindings(['check'], { cwd: repo.root, env: { NO_COLOR: undefined, FORCE_COLOR: undefined } });
    expect(piped.stdout).not.toContain('\u001b[');
    const both = await spawnFindings(['check'], { cwd: repo.root, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(both.stdout).not.toContain('\u001b[');
    expect(both.stdout).toContain('error');
  });
});
