/** Classes for recurrence (src/import/classify.ts, lexical.ts) and comments prevented (prevented.ts). */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { classify, compileRules, type Classifiable } from '../../src/import/classify.js';
import { lexicalClasses, SIMILARITY_THRESHOLD, terms } from '../../src/import/lexical.js';
import { preventedMarkdown, prevented, type CommentAnchor } from '../../src/import/prevented.js';

const item = (key: string, text: string, code = '', explicitClass: string | null = null): Classifiable => ({
  key,
  text,
  code,
  explicitClass,
});

/** Three comments on one defect in different words, and two on others (the fixtures' texts). */
const EXPORT: Classifiable[] = [
  item(
    'a',
    "Please don't leave `console.log` in committed code; use the `logger` from `src/log.ts` instead.",
    "console.log('loaded users', users);",
  ),
  item(
    'b',
    '`console.log` left in again. Our logger (`logger.debug`) keeps this out of production output.',
    "console.log('order totals', out);",
  ),
  item('c', 'drop this console.log and go through the logger.', "console.log('starting', config);"),
  item(
    'd',
    'this runs one query per order; fetch all orders with a single `db.all` call instead.',
    "out.push(await db.get('orders', id));",
  ),
  item('e', 'the error is swallowed here; rethrow it or report it.', '} catch (e) {'),
];

describe('classify', () => {
  it('puts differently worded comments on one defect in one lexical class named by its top terms, and no other', () => {
    const classes = classify(EXPORT, []);
    expect(Object.fromEntries([...classes].map(([k, v]) => [k, v]))).toEqual({
      a: { class: 'console-log-logger', origin: 'lexical' },
      b: { class: 'console-log-logger', origin: 'lexical' },
      c: { class: 'console-log-logger', origin: 'lexical' },
      d: { class: null, origin: 'none' },
      e: { class: null, origin: 'none' },
    });
    expect(SIMILARITY_THRESHOLD).toBe(0.3); // docs/import.md documents this number
  });

  it('gives the same classes whatever order the export lists the comments in', () => {
    const names = (items: Classifiable[]): string[] => [...lexicalClasses(items).entries()].sort().map(([k, v]) => `${k}=${v}`);
    const forward = names(EXPORT);
    expect(names([...EXPORT].reverse())).toEqual(forward);
    expect(names([EXPORT[2]!, EXPORT[0]!, EXPORT[4]!, EXPORT[1]!, EXPORT[3]!])).toEqual(forward);
  });

  it('takes an explicit class first, then the config mapping (words and /regex/), then clusters', () => {
    const { config } = parseConfig(
      JSON.stringify({ import: { classes: { 'n-plus-one': ['/query per (row|order)/i'], 'swallowed-error': ['swallowed', 'rethrow'] } } }),
    );
    const rules = compileRules(config.importClasses);
    expect(rules.problems).toEqual([]);
    const classes = classify([{ ...EXPORT[0]!, explicitClass: 'debug-output' }, ...EXPORT.slice(1)], rules.rules);
    expect([...classes.values()].map((c) => `${c.class ?? '-'}:${c.origin}`)).toEqual([
      'debug-output:explicit',
      'console-log-logger:lexical',
      'console-log-logger:lexical',
      'n-plus-one:config',
      'swallowed-error:config',
    ]);
  });

  it('matches a config word as a whole word only, and reports a pattern that does not compile', () => {
    const rules = compileRules({ logs: ['log'], bad: ['/(unclosed/'] });
    expect(rules.problems[0]).toMatch(/^"import\.classes\.bad": \/\(unclosed\/ does not compile/);
    const c = classify([item('x', 'the logger is fine'), item('y', 'remove this log line')], rules.rules);
    expect([c.get('x')!.origin, c.get('y')!.class]).toEqual(['none', 'logs']);
  });

  it('refuses an import.classes setting the schema does not allow', () => {
    const { config, diagnostics } = parseConfig(JSON.stringify({ import: { classes: { 'Not A Slug': ['x'] } } }));
    expect(config.importClasses).toEqual({});
    expect(diagnostics.map((d) => [d.ruleId, d.message])).toEqual([
      ['config/invalid-setting', expect.stringMatching(/^"import\.classes" .*; using the default \{\}$/)],
    ]);
    expect(parseConfig(JSON.stringify({ import: { classes: { x: [] } } })).diagnostics).toHaveLength(1);
  });

  it('splits identifiers and drops stop words', () => {
    expect(terms('Please use getUserById instead of HTTPServer here')).toEqual(['user', 'id', 'http', 'server']);
  });
});

describe('comments prevented', () => {
  const anchor = (findingId: string, path: string, commit: string, line: number, task = 'PR-1'): CommentAnchor => ({
    findingId,
    task,
    url: `https://github.com/a/b/pull/1#discussion_r${findingId}`,
    path,
    at: [{ commit, line }],
  });
  const hit = (id: string, commit: string, path: string, line: number) => ({ id, commit, path, line });

  it('counts a comment once when a hit on its file, at its commit, is within 3 lines; not otherwise', () => {
    const hits = [
      hit('h1', 'c1', 'src/a.ts', 10),
      hit('h2', 'c1', 'src/a.ts', 12),
      hit('h3', 'c2', 'src/a.ts', 20),
      hit('h4', 'c1', 'src/b.ts', 5),
    ];
    const comments = [
      anchor('1', 'src/a.ts', 'c1', 13), // h2 (1 away) and h1 (3 away): once, nearest hit
      anchor('2', 'src/a.ts', 'c1', 16), // 4 lines from h2
      anchor('3', 'src/a.ts', 'c1', 20), // h3 is at another commit
      anchor('4', 'src/c.ts', 'c1', 10), // another file
      anchor('5', 'src/b.ts', 'c1', 2, 'PR-0'), // exactly 3 away
    ];
    expect(prevented(hits, comments)).toEqual({
      count: 2,
      comments: [
        { finding_id: '5', task: 'PR-0', url: 'https://github.com/a/b/pull/1#discussion_r5', hit: 'h4' },
        { finding_id: '1', task: 'PR-1', url: 'https://github.com/a/b/pull/1#discussion_r1', hit: 'h2' },
      ],
    });
    expect(prevented([], comments)).toEqual({ count: 0, comments: [] });
  });

  it('renders the check --format markdown section, and none when no measurement counted comments', () => {
    expect(preventedMarkdown([])).toBeNull();
    const md = preventedMarkdown([
      { id: 'f-1', title: 'No console.log', prevented: prevented([hit('h', 'c', 'a.ts', 1)], [anchor('1', 'a.ts', 'c', 1)]) },
    ]);
    expect(md).toBe(
      [
        '#### Review comments these constraints would have prevented',
        '',
        '| constraint | comments prevented | comments |',
        '| --- | ---: | --- |',
        '| `f-1` No console.log | 1 | [PR-1](https://github.com/a/b/pull/1#discussion_r1) |',
      ].join('\n'),
    );
  });
});
