/**
 * The rule table (src/rules/table.ts) and docs/rules.md cover every rule id the sources emit, and
 * json/SARIF output link each diagnostic to its entry. The ids are found by reading the sources
 * (test/helpers/rule-ids.ts), so a new `ruleId: '…'` without a table entry and a documented
 * anchor fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diagnostic } from '../src/diagnostics.js';
import { diagnosticsToJson } from '../src/output/json.js';
import { sarifLog } from '../src/output/sarif.js';
import { findRule, RULES, RULES_DOC_URL, ruleHelpUri } from '../src/rules/table.js';
import { scanEmittedRuleIds } from './helpers/rule-ids.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const areaOf = (id: string): string => id.slice(0, id.indexOf('/'));
const areas = new Set(RULES.flatMap((r) => [r.id, ...(r.aliases ?? [])]).map(areaOf));
const emitted = scanEmittedRuleIds(root, areas);
const doc = readFileSync(path.join(root, 'docs/rules.md'), 'utf8');

describe('rule table', () => {
  it('finds the ids the sources emit (the scan itself works)', () => {
    expect(emitted.ids.size).toBeGreaterThan(100);
    expect(emitted.ids.get('registry/duplicate-id')).toContain('src/registry/validate.ts');
    // Ids written through a local helper are expanded, not only their family.
    expect(emitted.ids.has('lifecycle/not-shadow')).toBe(true);
    expect(emitted.ids.has('doctor/hook-missing')).toBe(true);
    expect(emitted.ids.has('pull/bad-ref')).toBe(true);
  });

  it('has an entry for every emitted rule id', () => {
    const missing = [...emitted.ids].filter(([id]) => findRule(id) === undefined).map(([id, files]) => `${id} (${files.join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('has a family entry for every id built from a template literal', () => {
    const missing = [...emitted.families]
      .filter(([family]) => !RULES.some((r) => r.family === family))
      .map(([family, files]) => `${family}<…> (${files.join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('documents every entry in docs/rules.md under its anchor, with its id and aliases', () => {
    const undocumented = RULES.filter((r) => !doc.includes(`<a id="${r.anchor}"></a>\`${r.id}\``)).map((r) => r.id);
    expect(undocumented).toEqual([]);
    const aliasesUndocumented = RULES.flatMap((r) => (r.aliases ?? []).filter((a) => !doc.includes(`\`${a}\``)));
    expect(aliasesUndocumented).toEqual([]);
  });

  it('keeps ids, aliases and anchors unique and ids in the <area>/<rule> form', () => {
    const ids = RULES.flatMap((r) => [r.id, ...(r.aliases ?? [])]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(RULES.map((r) => r.anchor)).size).toBe(RULES.length);
    for (const r of RULES) {
      expect(r.id).toMatch(r.family ? /^[a-z][a-z-]*\/<[a-z-]+>$/ : /^[a-z][a-z-]*\/[a-z0-9][a-z0-9-]*$/);
      expect(r.summary).not.toContain('\n');
    }
  });

  it('lists no entry that the sources no longer emit (an alias alone keeps an entry alive)', () => {
    const stale = RULES.filter((r) => !r.family && ![r.id, ...(r.aliases ?? [])].some((id) => emitted.ids.has(id))).map((r) => r.id);
    expect(stale).toEqual([]);
  });

  it('looks ids up by id, alias and family', () => {
    expect(findRule('registry/duplicate-id')?.anchor).toBe('registry-duplicate-id');
    expect(findRule('compile/drift')?.id).toBe('compiler/drift');
    expect(findRule('constraint/c-no-eval')?.id).toBe('constraint/<id>');
    expect(findRule('constraint/')).toBeUndefined();
    expect(findRule('nowhere/nothing')).toBeUndefined();
    expect(ruleHelpUri('registry/duplicate-id')).toBe(`${RULES_DOC_URL}#registry-duplicate-id`);
  });
});

describe('rule links in output', () => {
  const diagnostics = [
    diagnostic({ file: 'a.ts', line: 2, column: 1, ruleId: 'constraint/c-no-eval', message: 'eval' }),
    diagnostic({ file: '.agents/findings/registry.jsonl', line: 3, ruleId: 'registry/duplicate-id', message: 'dup' }),
    diagnostic({ file: 'x', ruleId: 'somewhere/unknown', message: 'not in the table' }),
  ];

  it('json: each diagnostic of a known rule carries helpUri', () => {
    const out = diagnosticsToJson(diagnostics) as Array<Record<string, unknown>>;
    expect(out.map((d) => [d.ruleId, d.helpUri])).toEqual([
      ['registry/duplicate-id', `${RULES_DOC_URL}#registry-duplicate-id`],
      ['constraint/c-no-eval', `${RULES_DOC_URL}#constraint-id`],
      ['somewhere/unknown', undefined],
    ]);
  });

  it('sarif: each rule of a known id carries helpUri (a constraint rule links the constraint family)', () => {
    const log = sarifLog(diagnostics, '1.0.0') as { runs: Array<{ tool: { driver: { rules: Array<Record<string, unknown>> } } }> };
    const rules = log.runs[0]!.tool.driver.rules;
    expect(rules.map((r) => [r.id, r.helpUri])).toEqual([
      ['c-no-eval', `${RULES_DOC_URL}#constraint-id`],
      ['registry/duplicate-id', `${RULES_DOC_URL}#registry-duplicate-id`],
      ['somewhere/unknown', undefined],
    ]);
  });
});
