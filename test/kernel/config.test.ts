import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, parseConfig } from '../../src/config.js';

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
    expect(config).toEqual({ taskBranchPattern: '^task-(.+)$', minLabelledHits: 5, minPrecision: 0.9, matchBudgetMs: 100 });
  });
  it('falls back to defaults with a warning for bad values and bad JSON', () => {
    const bad = parseConfig(JSON.stringify({ task_branch_pattern: '(', activation: { min_precision: 2 } }));
    expect(bad.config).toEqual(DEFAULT_CONFIG);
    expect(bad.diagnostics.map((d) => d.ruleId)).toEqual(['config/invalid-setting', 'config/invalid-setting']);
    expect(parseConfig('{').diagnostics[0]).toMatchObject({ severity: 'warning', ruleId: 'config/invalid-json' });
  });
});
