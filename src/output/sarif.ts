/**
 * SARIF 2.1.0 output for GitHub code scanning (docs/hooks.md, "Output formats"): rule ids are
 * constraint ids (`constraint/<id>` diagnostics map to `<id>`), levels error/warning/note, and
 * every result has a location with a 1-based line and column. When the constraint index is at
 * hand, each constraint's rule carries its metadata (reportingDescriptor, SARIF §3.49): `name`,
 * `shortDescription` = title, `fullDescription` = the detector pattern, `help` = checklist item
 * and the `explain` command, `defaultConfiguration.level` by status, and `properties.tags`.
 * A suppressed hit carries `suppressions` (SARIF §3.27.23): `inSource` with the marker's reason as
 * `justification`, or `external` for a hit in the constraint's baseline file.
 */
import { compareStrings, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { ruleHelpUri } from '../rules/table.js';
import type { ConstraintEntry } from '../types.js';
import { VERSION } from '../version.js';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** SARIF rule id of a diagnostic: the bare constraint id for constraint diagnostics. */
export function sarifRuleId(ruleId: string): string {
  return ruleId.startsWith('constraint/') ? ruleId.slice('constraint/'.length) : ruleId;
}

/** A repository-relative path as a URI reference (each segment percent-encoded). */
function uriOf(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

/** A rule's default level: what a hit of the constraint does at its status (gate semantics). Pure. */
export function defaultLevel(c: ConstraintEntry): 'error' | 'warning' | 'none' {
  if (c.status === 'retired' || c.enforcement_mode === 'off') return 'none';
  return c.status === 'active' || c.enforcement_mode === 'block' ? 'error' : 'warning';
}

/** A SARIF `name`: the title in PascalCase (letters and digits only), else the id. Pure. */
export function ruleName(c: ConstraintEntry): string {
  const words = c.title
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');
  const name = words
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
    .slice(0, 80);
  return name === '' ? c.id : name;
}

/** `fullDescription`: the detector pattern, what it requires, and where it applies. Pure. */
function patternText(c: ConstraintEntry): string {
  const re = `/${c.detector.pattern}/`;
  const what = c.detector.mode === 'required' ? `Files must contain ${re}` : `Flags text matching ${re}`;
  const scope = c.applies_to.scope === 'added-lines' ? ' (added lines only)' : '';
  return `${what} in ${c.applies_to.path_globs.join(', ')}${scope}.${c.detector.message ? ` ${c.detector.message}` : ''}`;
}

/** The full reportingDescriptor of a constraint. Pure. */
export function constraintRule(c: ConstraintEntry): object {
  const explain = `findings explain ${c.id}`;
  const checklist = c.checklist_item ?? c.title;
  const tags = [...new Set(['findings', 'constraint', c.status, ...(c.tier ? [c.tier] : []), ...(c.applies_to.languages ?? [])])];
  return {
    id: c.id,
    name: ruleName(c),
    shortDescription: { text: c.title },
    fullDescription: { text: patternText(c) },
    help: {
      text: `${checklist}\nWhere this comes from: run \`${explain}\`.`,
      markdown: `${checklist}\n\nWhere this comes from: run \`${explain}\` (finding ${c.finding_id}, ${c.source_artifact}).`,
    },
    defaultConfiguration: { level: defaultLevel(c) },
    properties: { tags },
  };
}

/** A rule known only by its id (not a constraint, or a constraint missing from the index). */
function bareRule(id: string, isConstraint: boolean): object {
  return { id, name: id, shortDescription: { text: id }, ...(isConstraint ? { help: { text: `findings explain ${id}` } } : {}) };
}

/** The SARIF log as a value. Pure and deterministic. */
export function sarifLog(diagnostics: readonly Diagnostic[], toolVersion: string, constraints: readonly ConstraintEntry[] = []): object {
  const sorted = sortDiagnostics(diagnostics);
  const ids = [...new Set(sorted.map((d) => sarifRuleId(d.ruleId)))].sort(compareStrings);
  const index = new Map(ids.map((id, i) => [id, i]));
  // Constraint ids carry no prefix (they are finding ids), so a constraint rule is known by its diagnostic's rule id.
  const constraintIds = new Set(sorted.filter((d) => d.ruleId.startsWith('constraint/')).map((d) => sarifRuleId(d.ruleId)));
  const byId = new Map(constraints.map((c) => [c.id, c]));
  const rules = ids.map((id) => {
    const c = byId.get(id);
    // helpUri: the rule's entry in docs/rules.md (src/rules/table.ts); a constraint links its family.
    const helpUri = ruleHelpUri(sorted.find((d) => sarifRuleId(d.ruleId) === id)!.ruleId);
    return { ...(c ? constraintRule(c) : bareRule(id, constraintIds.has(id))), helpUri };
  });
  const results = sorted.map((d) => {
    const id = sarifRuleId(d.ruleId);
    const text = [d.message, ...(d.notes ?? [])].join('\n');
    return {
      ruleId: id,
      ruleIndex: index.get(id)!,
      level: LEVEL[d.severity],
      message: { text },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: uriOf(d.file), uriBaseId: '%SRCROOT%' },
            // Code scanning needs a line; a whole-file problem (line 0) is shown at 1:1.
            region: { startLine: Math.max(1, d.line), startColumn: Math.max(1, d.column) },
          },
        },
      ],
      ...(d.suppressed
        ? { suppressions: [{ kind: d.suppressed.kind === 'inSource' ? 'inSource' : 'external', justification: d.suppressed.reason }] }
        : {}),
    };
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'findings-compiler', version: toolVersion, rules } },
        results,
      },
    ],
  };
}

export function formatSarif(diagnostics: readonly Diagnostic[], toolVersion: string, constraints: readonly ConstraintEntry[] = []): string {
  // Output.diagnostics passes no version (format.ts then says 0.0.0): report the package's own.
  const version = toolVersion === '0.0.0' ? VERSION : toolVersion;
  return `${JSON.stringify(sarifLog(diagnostics, version, constraints), null, 2)}\n`;
}
