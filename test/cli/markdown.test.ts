/** `--format markdown` for `check` and `compile --check` ($GITHUB_STEP_SUMMARY, PR comments). */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../src/diagnostics.js';
import { cell, code, constraintChanges, formatMarkdown, MARKDOWN_ROW_CAP } from '../../src/output/markdown.js';
import { FIXTURES, makeRepo, PACKAGE_ROOT, runFindings, spawnFindings, tempDir } from '../helpers/repo.js';
import { constraint, indexJson } from '../hooks/setup.js';

const golden = (name: string): string => readFileSync(path.join(FIXTURES, 'markdown', name), 'utf8');

describe('markdown pieces', () => {
  it.each([
    ['a|b', 'a\\|b'],
    ['two\nlines', 'two lines'],
  ])('cell(%j) = %j', (input, output) => expect(cell(input)).toBe(output));
  it.each([
    ['a.js:1:2', '`a.js:1:2`'],
    ['we`ird', '`` we`ird ``'],
  ])('code(%j) = %j', (input, output) => expect(code(input)).toBe(output));

  it.each([
    ['nothing', [constraint('a')], [constraint('a')], []],
    ['new', [], [constraint('a')], [['a', 'new', 'new']]],
    ['removed', [constraint('a')], [], [['a', 'removed', 'removed from the index']]],
    ['status', [constraint('a', { status: 'shadow' })], [constraint('a')], [['a', 'changed', 'status shadow → active']]],
    [
      'detector and globs',
      [constraint('a')],
      [constraint('a', { pattern: 'x', globs: ['*.ts'] })],
      [['a', 'changed', 'applies_to, detector']],
    ],
  ])('constraintChanges: %s', (_name, before, after, expected) => {
    expect(constraintChanges(before, after).map((c) => [c.id, c.kind, c.detail])).toEqual(expected);
  });

  it('summary line for no problems, warnings only, and a failure without errors', () => {
    const warn = diagnostic({ file: 'a.js', line: 1, severity: 'warning', ruleId: 'r/w', message: 'w' });
    expect(formatMarkdown([], { title: 'findings check', constraints: [], changes: null, scope: '3 files' })).toBe(
      '### findings check: ✅ no problems (3 files)\n',
    );
    expect(formatMarkdown([warn], { title: 't', constraints: [], changes: null }).split('\n')[0]).toBe('### t: ⚠️ 1 warning, no errors');
    expect(formatMarkdown([], { title: 't', constraints: [], changes: [], failure: '2 files stale' })).toBe(
      '### t: ❌ 2 files stale\n\n#### New, changed or removed constraints\n\nNo constraint is new or changed.\n',
    );
  });

  it(`caps the table at ${MARKDOWN_ROW_CAP} rows`, () => {
    const many = Array.from({ length: MARKDOWN_ROW_CAP + 3 }, (_, i) =>
      diagnostic({ file: 'a.js', line: 1, ruleId: `r/${String(i).padStart(3, '0')}`, message: 'm' }),
    );
    const text = formatMarkdown(many, { title: 't', constraints: [], changes: null });
    expect(text.split('\n').filter((l) => l.startsWith('| `r/'))).toHaveLength(MARKDOWN_ROW_CAP);
    expect(text).toContain('…and 3 more rules');
  });
});

describe('findings check --format markdown', () => {
  it('a range: hits by constraint and the constraints the range adds or changes (golden)', async () => {
    const repo = makeRepo({
      '.agents/constraints/index.json': indexJson(constraint('a', { status: 'shadow' }), constraint('gone')),
      'old.js': 'eval(1)\n',
    });
    const base = repo.commitAll('base');
    repo.write(
      '.agents/constraints/index.json',
      indexJson(constraint('a', { title: 'No eval | ever' }), constraint('b', { status: 'shadow', pattern: 'debugger' })),
    );
    repo.write('new.js', 'eval(2)\neval(3)\ndebugger\n');
    repo.write('z.js', 'eval(4)\n');
    const tip = repo.commitAll('tip');
    // c-gone was active at the base: removing it in the range does not stop it judging the range.
    const r = await runFindings(['check', '--from-ref', base, '--to-ref', tip, '--format', 'markdown'], { cwd: repo.root });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(golden('check-range.md'));
    expect(r.stderr).toBe('');
  });

  it('staged: compares HEAD with the index; exit codes as for stylish (real bin)', async () => {
    const repo = makeRepo({ '.agents/constraints/index.json': indexJson(constraint('a', { status: 'shadow' })) });
    repo.commitAll('base');
    repo.write('a.js', 'eval(1)\n');
    repo.git('add', 'a.js');
    const r = await spawnFindings(['check', '--format', 'markdown'], { cwd: repo.root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('### findings check: ⚠️ 1 warning, no errors (1 file, 1 constraint)');
    expect(r.stdout).toContain('| `a` Title of a | shadow (warns) | 1 | `a.js:1:1` |');
    expect(r.stdout).toContain('No constraint is new or changed.');
    const none = await spawnFindings(['check', '--format', 'markdown'], { cwd: makeRepo().root });
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/^### findings check: ✅ no problems \(no constraint index/);
  });
});

describe('findings compile --check --format markdown', () => {
  it('current: one line; missing index: the file and the constraints compiling would add', async () => {
    const root = tempDir();
    cpSync(path.join(PACKAGE_ROOT, 'examples/demo'), root, { recursive: true });
    const ok = await runFindings(['compile', '--check', '--format', 'markdown', '--root', root], { cwd: root });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toBe(
      '### findings compile --check: ✅ no problems (all compiled files are current)\n\n#### ' +
        'New, changed or removed constraints\n\nNo constraint is new or changed.\n',
    );
    rmSync(path.join(root, '.agents/constraints/index.json'));
    const drift = await runFindings(['compile', '--check', '--format', 'markdown', '--root', root], { cwd: root });
    expect(drift.code).toBe(1);
    expect(drift.stdout).toBe(golden('compile-missing-index.md'));
    expect((await runFindings(['compile', '--format', 'markdown', '--root', root], { cwd: root })).code).toBe(2);
  });
});
