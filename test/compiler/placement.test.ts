/**
 * compiler/placement.ts: the one function that decides which file of the constraint set an entry
 * goes to — index.json when upstream's strict loader and gate can take it as it is, else
 * extended.json — as a table of entries and the file each belongs in.
 */
import { describe, expect, it } from 'vitest';
import { placementOf, placed, portabilityProblems } from '../../compiler/placement.js';
import type { ConstraintEntry } from '../../src/types.js';
import { makeRepo, runFindings } from '../helpers/repo.js';
import { constraint, indexJson } from '../hooks/setup.js';

type Over = Parameters<typeof constraint>[1];
const entry = (over: Over = {}, detector: Partial<ConstraintEntry['detector']> = {}): ConstraintEntry => {
  const c = constraint('f-1', over);
  return { ...c, detector: { ...c.detector, ...detector } };
};

describe('placementOf', () => {
  const index: [string, ConstraintEntry][] = [
    ['a plain regex on **/*.js', entry()],
    ['an exact path', entry({ globs: ['Makefile'] })],
    ['base/**', entry({ globs: ['cli/**'] })],
    ['**/*suffix', entry({ globs: ['**/*_test.go'] })],
    ['*.ext', entry({ globs: ['*.py'] })],
    ['one * anywhere (it crosses /)', entry({ globs: ['src/*.ts', 'test_*'] })],
    ['every path, as **/*', entry({ globs: ['**/*'] })],
    ['Next.js paths: brackets and parentheses are path characters there', entry({ globs: ['app/(group)/**', 'routes/[id]/**'] })],
    ['RE2-only syntax Go accepts', entry({ pattern: '(?i:todo)|(?P<kw>FIXME)|\\pL\\z|[[:digit:]]|\\Qa.b\\E' })],
    ['nested quantifiers (RE2 is linear)', entry({ pattern: '(a+)+$' })],
    ['anchors, read per line', entry({ pattern: '^import sys$' })],
    ['\\s and negated classes, which never see a line feed per line', entry({ pattern: '[^;]\\s+$' })],
    ['a required mode', entry({}, { mode: 'required' })],
    ["upstream's other mode spellings", entry({}, { mode: 'forbid' })],
    ['an exclude', entry({}, { exclude: 'nolint' })],
    ['any status: a draft keeps its file', entry({ status: 'draft' })],
  ];
  it.each(index)('index.json: %s', (_name, e) => {
    expect(portabilityProblems(e)).toEqual([]);
    expect(placementOf(e)).toBe('index');
  });

  const extended: [string, ConstraintEntry, RegExp][] = [
    [
      'a glob shape upstream rejects',
      entry({ globs: ['src/**/*.ts'] }),
      /path glob "src\/\*\*\/\*\.ts" has a shape upstream's gate rejects/,
    ],
    ['two stars', entry({ globs: ['*/*.js'] }), /shape upstream's gate rejects/],
    ['** alone', entry({ globs: ['**'] }), /shape upstream's gate rejects/],
    ['a ! glob (an exclusion here, a path there)', entry({ globs: ['src/**', '!src/gen/**'] }), /excludes files/],
    ['a multi-line pattern (\\n)', entry({ pattern: 'try:\\n\\s*pass' }), /spans lines/],
    ['the s flag', entry({ pattern: '(?s)BEGIN.*END' }), /spans lines/],
    ['a line feed in a class', entry({ pattern: 'a[\\n]b' }), /spans lines/],
    ['lookbehind (re2js only)', entry({ pattern: '(?<=x)y' }), /not in the RE2 syntax Go accepts/],
    ['a multi-line exclude', entry({}, { exclude: 'a\\nb' }), /detector.exclude .* spans lines/],
    ['another detector kind', entry({}, { kind: 'ast-grep', language: 'ts' }), /detector kind "ast-grep"/],
    ['a mode upstream does not know', entry({}, { mode: 'must_contain' }), /detector mode "must_contain"/],
    ['added-lines scope', entry({ scope: 'added-lines' }), /scope "added-lines"/],
  ];
  it.each(extended)('extended.json: %s', (_name, e, why) => {
    expect(portabilityProblems(e).join('; ')).toMatch(why);
    expect(placementOf(e)).toBe('extended');
  });

  it('placed() marks the entry for its file, and clears a stale mark', () => {
    expect(placed(entry({ globs: ['src/**/*.ts'] })).origin).toBe('extended');
    const back = placed({ ...entry(), origin: 'extended' });
    expect(back.origin).toBeUndefined();
    expect('origin' in back).toBe(false);
  });
});

describe('findings validate: constraint-index/not-portable', () => {
  it('warns about an index.json entry upstream cannot take, at its line; the same entry in extended.json is fine', async () => {
    const repo = makeRepo();
    const wide = constraint('f-wide', { globs: ['src/**/*.ts'] });
    repo.write('.agents/constraints/index.json', indexJson(wide));
    const r = await runFindings(['validate', '--root', repo.root, '--format', 'json'], { cwd: repo.root });
    const found = JSON.parse(r.stdout) as { ruleId: string; line: number; severity: string }[];
    expect(found.map((d) => [d.ruleId, d.line, d.severity])).toEqual([['constraint-index/not-portable', 5, 'warning']]);
    repo.write('.agents/constraints/index.json', indexJson());
    repo.write('.agents/constraints/extended.json', indexJson(wide));
    const moved = await runFindings(['validate', '--root', repo.root, '--format', 'json'], { cwd: repo.root });
    expect(JSON.parse(moved.stdout)).toEqual([]);
  });
});
