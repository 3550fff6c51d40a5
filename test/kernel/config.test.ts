import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, parseConfig, SETTINGS } from '../../src/config.js';
import { PACKAGE_ROOT } from '../helpers/repo.js';

describe('parseConfig', () => {
  it('reads known settings', () => {
    const { config, diagnostics } = parseConfig(
      JSON.stringify({
        task_branch_pattern: '^task-(.+)$',
        activation: { min_labelled_hits: 5, min_precision: 0.9 },
        match_budget_ms: 100,
      }),
    );
    expect(diagnostics).toEqual([]);
    expect(config).toEqual({
      taskBranchPattern: '^task-(.+)$',
      minLabelledHits: 5,
      minPrecision: 0.9,
      matchBudgetMs: 100,
      importClasses: {},
    });
  });

  it('an unknown key is an error with a did-you-mean, at its line; the rest of the file still counts', () => {
    const text = '{\n  "activation": {\n    "min_labeled_hits": 5,\n    "min_precision": 0.9\n  }\n}\n';
    const { config, diagnostics } = parseConfig(text);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        ruleId: 'config/unknown-key',
        line: 3,
        message: expect.stringContaining('did you mean "activation.min_labelled_hits"?'),
      }),
    ]);
    expect(config.minPrecision).toBe(0.9);
    expect(config.minLabelledHits).toBe(20);
  });

  it('a setting at the wrong level suggests where it belongs', () => {
    const { diagnostics } = parseConfig('{"min_labelled_hits": 3, "zzzzzzzzzz": 1}');
    expect(diagnostics.map((d) => [d.ruleId, d.message])).toEqual([
      ['config/unknown-key', 'unknown setting "min_labelled_hits" (ignored); did you mean "activation.min_labelled_hits"?'],
      ['config/unknown-key', 'unknown setting "zzzzzzzzzz" (ignored); docs/config.md lists every setting'],
    ]);
  });

  it('invalid JSON is an error at its line and column; every setting takes its default', () => {
    const r = parseConfig('{\n  "match_budget_ms": 10,\n}\n');
    expect(r.config).toEqual(DEFAULT_CONFIG);
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'error', ruleId: 'config/invalid-json', line: 3 })]);
    expect(parseConfig('[]').diagnostics[0]).toMatchObject({ severity: 'error', ruleId: 'config/not-object' });
  });

  it('a value of the wrong type or range is an error naming the key; its default applies', () => {
    const bad = parseConfig(
      '{\n"task_branch_pattern": "(",\n"activation": {"min_precision": 2, "min_labelled_hits": 1.5},\n"match_budget_ms": 7\n}',
    );
    expect(bad.config).toEqual({ ...DEFAULT_CONFIG, matchBudgetMs: 7 });
    expect(bad.diagnostics.map((d) => [d.severity, d.ruleId, d.line, d.message])).toEqual([
      ['error', 'config/invalid-setting', 3, '"activation.min_labelled_hits" must be integer (found 1.5); using the default 20'],
      ['error', 'config/invalid-setting', 3, '"activation.min_precision" must be <= 1 (found 2); using the default 0.95'],
      [
        'error',
        'config/invalid-setting',
        2,
        expect.stringMatching(/^"task_branch_pattern" is not a valid regular expression .*: the push gate cannot tell a branch's task$/),
      ],
    ]);
    expect(parseConfig('{"activation": 3}').diagnostics[0]!.message).toBe(
      '"activation" must be object (found 3); its settings take their defaults',
    );
  });
});

/** Leaf properties of the schema (objects of settings are walked into), as dotted keys with their schema. */
function schemaLeaves(schema: { properties?: Record<string, Record<string, unknown>> }, prefix = ''): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const [k, v] of Object.entries(schema.properties ?? {})) {
    if (k.startsWith('$')) continue;
    if (v['type'] === 'object' && v['properties'] !== undefined)
      for (const [kk, vv] of schemaLeaves(v as never, `${prefix}${k}.`)) out.set(kk, vv);
    else out.set(prefix + k, v);
  }
  return out;
}

describe('one setting = one schema property + one SETTINGS row + one line of docs/config.md', () => {
  const schema = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'schemas/config.schema.json'), 'utf8')) as never;
  const leaves = schemaLeaves(schema);
  const docs = readFileSync(path.join(PACKAGE_ROOT, 'docs/config.md'), 'utf8');

  it('the schema and the table name the same settings with the same defaults', () => {
    expect([...leaves.keys()].sort()).toEqual(SETTINGS.map((s) => s.key).sort());
    for (const s of SETTINGS) expect([s.key, leaves.get(s.key)?.['default']]).toEqual([s.key, s.default]);
  });

  it('docs/config.md documents every setting with its default', () => {
    for (const s of SETTINGS)
      expect(docs).toMatch(
        new RegExp(
          `^\\| \`${s.key.replace(/\./g, '\\.')}\` \\|.*\`${JSON.stringify(s.default).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``,
          'm',
        ),
      );
  });
});
