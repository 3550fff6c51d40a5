/**
 * `check --all` reads only the blobs a constraint could report something in (hooks/blob-selection.ts);
 * the verdict must be exactly the one from reading every file. The reference reads every blob of
 * the same content through the tree mode (no selection) and runs the same check.
 */
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grepPattern, pathsWorthReading } from '../../hooks/blob-selection.js';
import { checkConstraints } from '../../hooks/check.js';
import { collect } from '../../hooks/sources.js';
import { compileDetector } from '../../src/match/detector.js';
import type { ConstraintEntry } from '../../src/types.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { constraint, indexJson } from './setup.js';

const INDEX = '.agents/constraints/index.json';

/** A repository whose index, HEAD tree and working-tree constraint index agree. */
function repoWith(entries: ConstraintEntry[], files: Record<string, string | Buffer>, links: Record<string, string> = {}): TestRepo {
  const repo = makeRepo();
  repo.write(INDEX, indexJson(...entries));
  for (const [rel, content] of Object.entries(files)) repo.write(rel, content);
  for (const [rel, target] of Object.entries(links)) symlinkSync(target, path.join(repo.root, rel));
  repo.commitAll('content');
  return repo;
}

/** The diagnostics of `check --all` (with selection) and of the same files all read (tree mode, no selection). */
async function bothWays(repo: TestRepo) {
  const head = repo.git('rev-parse', 'HEAD').trim();
  const options = { skip: new Set<string>(), bypass: null };
  const all = await checkConstraints(repo.root, { kind: 'all' }, options);
  const full = await collect(repo.root, { kind: 'tree', commit: head });
  const reference = await checkConstraints(repo.root, { kind: 'all' }, { ...options, collected: { ...full, contentSource: 'worktree' } });
  return { all, reference };
}

const listedOf = async (repo: TestRepo) =>
  repo
    .git('ls-files', '-s')
    .trim()
    .split('\n')
    .map((l) => ({ mode: l.split(' ')[0]!, path: l.split('\t')[1]! }));

describe('check --all reads only the blobs that can matter', () => {
  const entries = [
    constraint('c-eval', { globs: ['**/*.js'] }),
    constraint('c-cafe', { pattern: 'café\\(', globs: ['**/*.js'] }),
    constraint('c-astral', { pattern: '😀x', globs: ['**/*.js'], status: 'shadow' }),
    constraint('c-try', { pattern: 'try:\\n\\s*pass', globs: ['**/*.py'] }),
    constraint('c-case', { pattern: '(?i)todo', globs: ['docs/**'] }),
    constraint('c-spdx', { detector: { kind: 'regex', pattern: 'SPDX', mode: 'required' }, globs: ['lib/**'] }),
  ];
  const files: Record<string, string | Buffer> = {
    'src/hit.js': 'x = eval(y);\n',
    'src/clean.js': 'x = 1;\n',
    'src/clean2.js': 'retrieval(y);\n',
    'src/cafe.js': 'café(1);\n',
    'src/astral.js': 'a😀x\n',
    'src/nul-text.js': 'console.log(x); // \0 eval(z)\n',
    'src/binary.js': Buffer.from([0x00, 0xff, 0xfe, 0x65, 0x76, 0x61, 0x6c, 0x28]),
    'src/latin1.js': Buffer.from('x = eval(\xe9);\n', 'latin1'),
    'app/a.py': 'try:\n    pass\n',
    'app/b.py': 'print(1)\n',
    'docs/a.md': 'ToDo: later\n',
    'docs/b.md': 'done\n',
    'lib/with.js': '// SPDX-License-Identifier: MIT\n',
    'lib/without.js': 'x = 2;\n',
    '.agents/findings/f.md': 'eval( is quoted here\n',
  };

  it('gives exactly the verdict of reading every file, and leaves the others unread', async () => {
    const repo = repoWith(entries, files, { 'src/link.js': 'eval(target' });
    const { all, reference } = await bothWays(repo);
    expect(all.status).toBe('checked');
    expect(all.diagnostics).toEqual(reference.diagnostics);
    expect(all.diagnostics.map((d) => `${d.ruleId} ${d.file}:${d.line}`)).toEqual(
      expect.arrayContaining([
        'constraint/eval src/hit.js:1',
        'constraint/eval src/nul-text.js:1',
        'constraint/eval src/latin1.js:1',
        'constraint/eval src/link.js:1',
        'constraint/cafe src/cafe.js:1',
        'constraint/astral src/astral.js:1',
        'constraint/try app/a.py:1',
        'constraint/case docs/a.md:1',
        'constraint/spdx lib/without.js:1',
      ]),
    );
    expect(all.diagnostics.some((d) => d.file === 'src/binary.js' && d.ruleId === 'gate/binary-skipped')).toBe(true);
    // The same number of files is reported as checked.
    expect(all.collected.files.map((f) => f.path)).toEqual(reference.collected.files.map((f) => f.path));

    const chosen = await pathsWorthReading(repo.root, await listedOf(repo), { index: repo.read(INDEX), extended: null });
    expect(chosen).not.toBeNull();
    // Unread: a clean file that only literal-screened `match` constraints cover.
    expect(chosen!.has('src/clean.js')).toBe(false);
    // Read: every file a pattern covers whose literal spans lines (git grep looks line by line), too.
    // Read: literal holders, NUL holders, a symlink, every file of an unscreened or required constraint, .agents/.
    for (const p of [
      'src/hit.js',
      'src/clean2.js',
      'src/nul-text.js',
      'src/binary.js',
      'src/link.js',
      'docs/b.md',
      'lib/without.js',
      'app/a.py',
    ])
      expect(chosen!.has(p), p).toBe(true);
    expect(chosen!.has('.agents/findings/f.md')).toBe(true);
  });

  it('reads everything when the index is missing or invalid', async () => {
    const repo = repoWith(entries, { 'src/a.js': 'x\n' });
    const listed = await listedOf(repo);
    expect(await pathsWorthReading(repo.root, listed, { index: null, extended: null })).toBeNull();
    expect(await pathsWorthReading(repo.root, listed, { index: '{"schema_version": 1, "constraints": [', extended: null })).toBeNull();
  });

  it('searches bytes: literals as UTF-8, every byte but letters and digits escaped, NUL first', () => {
    expect(grepPattern(['eval(', 'café'])).toBe('\\x00|eval\\x28|caf\\xc3\\xa9');
    expect(grepPattern([])).toBe('\\x00');
  });

  it('agrees with reading every file on generated contents and patterns', async () => {
    const chars = ['a', 'b', 'e', 'v', 'l', '(', 'é', '😀', '\n', ' ', 'K', '\0'];
    const text = fc.array(fc.constantFrom(...chars, 'eval(', 'ab', 'é('), { maxLength: 30 }).map((p) => p.join(''));
    const pattern = fc.constantFrom('eval\\(', 'ab+', 'a(b|é)\\(', '(?i)EVAL', '😀', 'b\\nv', '[ab]{2}', 'é\\(|v l', 'K');
    const seed = Number(process.env['FINDINGS_TEST_SEED'] ?? Date.now() % 1_000_000);
    console.log(`blob selection: seed ${seed} (replay with FINDINGS_TEST_SEED=${seed})`);
    const texts = fc.sample(text, { numRuns: 60, seed });
    const patterns = fc.sample(fc.uniqueArray(pattern, { minLength: 1, maxLength: 4 }), { numRuns: 1, seed })[0]!;
    const generated = patterns
      .filter((p) => compileDetector({ kind: 'regex', pattern: p }).ok)
      .map((p, i) => constraint(`c-g${i}`, { pattern: p, globs: [i % 2 === 0 ? '**' : 'src/**'] }));
    const repo = repoWith(generated, Object.fromEntries(texts.map((t, i) => [`${i % 3 === 0 ? 'src' : 'other'}/f${i}.txt`, t])));
    const { all, reference } = await bothWays(repo);
    expect(all.diagnostics).toEqual(reference.diagnostics);
  });
});
