import { describe, expect, it } from 'vitest';
import { compileAppliesTo } from '../../src/match/applies.js';

function filter(spec: Parameters<typeof compileAppliesTo>[0]) {
  const r = compileAppliesTo(spec);
  if (!r.ok) throw new Error(r.problem);
  return r.test;
}

describe('compileAppliesTo', () => {
  it('accepts the upstream glob forms and more (picomatch)', () => {
    const cases: [string, string, boolean][] = [
      ['src/**', 'src/a/b.ts', true],
      ['**/*.ts', 'a/b/c.ts', true],
      ['*.ts', 'a.ts', true],
      // A slash-less glob matches the base name at any depth (docs/hooks.md "Globs").
      ['*.ts', 'a/b.ts', true],
      ['a/*.ts', 'a/b/c.ts', false],
      ['cli/**/*.go', 'cli/cmd/ao/main.go', true],
      ['src/*/x.ts', 'src/a/x.ts', true],
      ['**/*.{ts,tsx}', 'a/.hidden/b.tsx', true],
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
    expect(compileAppliesTo({ path_globs: ['src/[abc'] })).toMatchObject({ ok: false });
    expect(compileAppliesTo({ path_globs: ['**/*.{ts'] })).toMatchObject({ ok: false });
    expect(compileAppliesTo({ path_globs: [' '] })).toMatchObject({ ok: false });
  });
});
