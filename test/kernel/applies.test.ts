import { describe, expect, it } from 'vitest';
import { compileAppliesTo } from '../../src/match/applies.js';

function filter(spec: Parameters<typeof compileAppliesTo>[0]) {
  const r = compileAppliesTo(spec);
  if (!r.ok) throw new Error(r.problem);
  return r.test;
}

describe('compileAppliesTo', () => {
  it("matches upstream's shapes as upstream's matchGlob does, and other shapes as picomatch", () => {
    const cases: [string, string, boolean][] = [
      ['src/**', 'src/a/b.ts', true],
      ['src/**', 'src', false],
      ['**/*.ts', 'a/b/c.ts', true],
      ['*.ts', 'a.ts', true],
      ['*.ts', 'a/b.ts', true],
      // Upstream's one `*` crosses `/` and is compared with the whole path (docs/hooks.md "Globs").
      ['a/*.ts', 'a/b/c.ts', true],
      ['test_*', 'test_data/a.py', true],
      ['src/*/x.ts', 'src/a/b/x.ts', true],
      ['test_*', 'src/test_a.py', false],
      // An exact path is the whole path from the root, not the base name at any depth.
      ['Makefile', 'Makefile', true],
      ['Makefile', 'sub/Makefile', false],
      ['.env', 'config/.env', false],
      // Brackets, parentheses and braces are path characters in upstream's shapes (Next.js routes).
      ['app/(group)/**', 'app/(group)/page.tsx', true],
      ['routes/[id]/**', 'routes/[id]/page.tsx', true],
      ['routes/[id]/**', 'routes/i/page.tsx', false],
      ['**/*.{ts,tsx}', 'a/b.tsx', false],
      // Other shapes: picomatch (a slash-less one matches the base name at any depth).
      ['cli/**/*.go', 'cli/cmd/ao/main.go', true],
      ['src/*/*.ts', 'src/a/x.ts', true],
      ['src/*/*.ts', 'src/a/b/x.ts', false],
      ['src/**/*.{ts,tsx}', 'src/.hidden/b.tsx', true],
      ['README.md', 'README.md', true],
    ];
    for (const [glob, path, expected] of cases) expect([glob, path, filter({ path_globs: [glob] })(path)]).toEqual([glob, path, expected]);
  });
  it('applies to every file when no glob is given, and combines prefixes and extensions', () => {
    expect(filter({})('anything')).toBe(true);
    const t = filter({ path_globs: ['**'], path_prefixes: ['src/'], extensions: ['ts'] });
    expect([t('src/a.ts'), t('lib/a.ts'), t('src/a.js')]).toEqual([true, false, false]);
  });
  it('reports a glob that cannot be parsed', () => {
    expect(compileAppliesTo({ path_globs: ['src/**/[abc'] })).toMatchObject({ ok: false });
    expect(compileAppliesTo({ path_globs: ['src/**/*.{ts'] })).toMatchObject({ ok: false });
    // Upstream's shapes have no syntax to get wrong: a bracket is a path character.
    expect(compileAppliesTo({ path_globs: ['src/[abc'] })).toMatchObject({ ok: true });
    expect(compileAppliesTo({ path_globs: [' '] })).toMatchObject({ ok: false });
  });
  it('a ! glob excludes in the extended index (the last matching glob decides), and never widens', () => {
    const globs = ['src/**', '!src/gen/**', 'src/gen/keep.ts'];
    const ext = compileAppliesTo({ path_globs: globs }, { exclusions: true });
    if (!ext.ok) throw new Error(ext.problem);
    expect(['src/a.ts', 'src/gen/b.ts', 'src/gen/keep.ts', 'lib/a.ts'].map(ext.test)).toEqual([true, false, true, false]);
    // In index.json it is a path, as upstream reads it: the entry covers what its other globs cover.
    const plain = filter({ path_globs: ['src/**', '!src/gen/**'] });
    expect(['src/gen/b.ts', 'lib/a.ts'].map(plain)).toEqual([true, false]);
    expect(compileAppliesTo({ path_globs: ['!src/gen/**'] }, { exclusions: true })).toMatchObject({ ok: false });
  });
});
