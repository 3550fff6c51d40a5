/**
 * House style that the formatter does not enforce: no source line over 160 characters. Biome
 * wraps code at 140 (biome.json) but never splits a string literal or a comment, so a long
 * message would creep back in unnoticed; split it into concatenated pieces instead (CONTRIBUTING.md).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './helpers/repo.js';

const MAX_LINE = 160;
const SOURCE = /\.(?:ts|mts|cts|mjs|js|cjs)$/;
// The same folders biome.json leaves alone (exact bytes or user-facing copies), plus generated code.
const EXEMPT = /(?:^|\/)(?:test\/fixtures|examples|templates|dist|coverage|node_modules)\/|(?:^|\/|\.)generated(?:\/|\.)/;

/** `line:length` of every line longer than `max` characters (code points, as editors count). Pure. */
function longLines(text: string, max: number): { line: number; length: number }[] {
  return text
    .split('\n')
    .map((l, i) => ({ line: i + 1, length: [...l.replace(/\r$/, '')].length }))
    .filter((l) => l.length > max);
}

/** Tracked and new (not ignored) source files that exist in the working tree, repository-relative. */
function sourceFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: PACKAGE_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0'))].filter((f) => SOURCE.test(f) && !EXEMPT.test(f) && existsSync(path.join(PACKAGE_ROOT, f))).sort();
}

describe('source line length', () => {
  it('longLines names each line over the limit, 1-based, counting code points', () => {
    expect(longLines(`${'a'.repeat(5)}\n${'é'.repeat(6)}\n${'b'.repeat(7)}\r\n`, 5)).toEqual([
      { line: 2, length: 6 },
      { line: 3, length: 7 },
    ]);
  });

  it('exempts fixtures, examples, templates and generated files only', () => {
    const exempt = ['test/fixtures/a/x.ts', 'examples/demo/src/trace.ts', 'templates/x.js', 'src/x.generated.ts', 'dist/src/index.js'];
    const checked = ['src/index.ts', 'hooks/pre-commit.ts', 'test/style.test.ts', 'bench/run.mjs', 'src/templates.ts'];
    expect(exempt.filter((f) => !EXEMPT.test(f))).toEqual([]);
    expect(checked.filter((f) => EXEMPT.test(f))).toEqual([]);
  });

  it(`no tracked source file has a line over ${MAX_LINE} characters`, () => {
    const files = sourceFiles();
    expect(files).toContain('src/index.ts');
    const over = files.flatMap((f) =>
      longLines(readFileSync(path.join(PACKAGE_ROOT, f), 'utf8'), MAX_LINE).map((l) => `${f}:${l.line} (${l.length} characters)`),
    );
    expect(over, 'split these lines (string literals into concatenated pieces)').toEqual([]);
  });
});
