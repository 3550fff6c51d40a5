/** SARIF rule metadata, validated against the official SARIF 2.1.0 schema (test/fixtures/sarif). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../src/diagnostics.js';
import { defaultLevel, ruleName, sarifLog } from '../../src/output/sarif.js';
import { FIXTURES, makeRepo, runFindings } from '../helpers/repo.js';
import { constraint, indexJson } from '../hooks/setup.js';
import { entry, jsonl, REGISTRY } from '../registry/entries.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const schema = JSON.parse(readFileSync(path.join(FIXTURES, 'sarif', 'sarif-schema-2.1.0.json'), 'utf8')) as object;
// The official schema's `language` pattern has a stray `]`, invalid with the `u` flag: compile without it.
const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
addFormats(ajv);
const validateSarif = ajv.compile(schema);

function expectValid(log: unknown): void {
  const ok = validateSarif(log);
  expect(ok ? [] : validateSarif.errors).toEqual([]);
}

describe('SARIF rule metadata', () => {
  it.each([
    [{ status: 'active' as const }, 'error'],
    [{ status: 'shadow' as const }, 'warning'],
    [{ status: 'retired' as const }, 'none'],
    [{ status: 'shadow' as const, enforcement_mode: 'block' as const }, 'error'],
  ])('default level of %j is %s', (over, level) => {
    expect(defaultLevel(constraint('x', over))).toBe(level);
  });

  it.each([
    ['Parsers ship without malformed-input tests', 'ParsersShipWithoutMalformedInputTests'],
    ['console.log left in src/', 'ConsoleLogLeftInSrc'],
    ['—', 'x'],
  ])('name of "%s" is %s', (title, name) => {
    expect(ruleName(constraint('x', { title }))).toBe(name);
  });

  it('a pure log with metadata and bare rules is valid SARIF 2.1.0', () => {
    const c = constraint('x', {
      status: 'shadow',
      checklist_item: 'Remove the eval.',
      tier: 'local',
      applies_to: { scope: 'added-lines', path_globs: ['**/*.js'], languages: ['javascript'] },
    });
    const log = sarifLog(
      [
        diagnostic({ file: 'a b.js', line: 2, column: 3, severity: 'warning', ruleId: 'constraint/x', message: 'hit' }),
        diagnostic({ file: 'x.js', line: 0, ruleId: 'constraint/unknown', message: 'not in the index' }),
        diagnostic({ file: '.agents/findings/registry.jsonl', line: 1, severity: 'info', ruleId: 'registry/x', message: 'note' }),
      ],
      '1.2.3',
      [c],
    ) as { runs: [{ tool: { driver: { rules: unknown[] } } }] };
    expectValid(log);
    const rule = log.runs[0].tool.driver.rules[2];
    expect(rule).toEqual({
      id: 'x',
      name: 'TitleOfX',
      shortDescription: { text: 'Title of x' },
      fullDescription: { text: 'Flags text matching /\\beval\\(/ in **/*.js (added lines only).' },
      help: {
        text: 'Remove the eval.\nWhere this comes from: run `findings explain x`.',
        markdown: 'Remove the eval.\n\nWhere this comes from: run `findings explain x` (finding x, .agents/findings/x.md).',
      },
      defaultConfiguration: { level: 'warning' },
      properties: { tags: ['findings', 'constraint', 'shadow', 'local', 'javascript'] },
      helpUri: expect.stringMatching(/\/docs\/rules\.md#constraint-id$/),
    });
    expect(log.runs[0].tool.driver.rules[1]).toMatchObject({ id: 'unknown', help: { text: 'findings explain unknown' } });
  });

  it('findings check --format sarif carries the index metadata and validates', async () => {
    const repo = makeRepo({
      'a.js': 'eval("1");\n',
      'b.js': 'debugger;\n',
      '.agents/constraints/index.json': indexJson(
        constraint('active'),
        constraint('shadow', { status: 'shadow', pattern: '\\bdebugger\\b' }),
      ),
    });
    repo.git('add', '-A');
    const r = await runFindings(['check', '--format', 'sarif'], { cwd: repo.root });
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expectValid(log);
    const rules = log.runs[0].tool.driver.rules as {
      id: string;
      defaultConfiguration: { level: string };
      shortDescription: { text: string };
    }[];
    expect(rules.map((x) => [x.id, x.defaultConfiguration.level, x.shortDescription.text])).toEqual([
      ['active', 'error', 'Title of active'],
      ['shadow', 'warning', 'Title of shadow'],
    ]);
  });

  it('findings validate --format sarif validates', async () => {
    const repo = makeRepo();
    repo.write(REGISTRY, jsonl(entry({ dedup_key: 'just-a-slug' }), '{"id": "f-2",'));
    const r = await runFindings(['validate', '--format', 'sarif'], { cwd: repo.root });
    expect(r.code).toBe(1);
    expectValid(JSON.parse(r.stdout));
  });
});
