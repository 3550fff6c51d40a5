/**
 * SARIF 2.1.0 output for GitHub code scanning (issue 4, "Output formats for CI"): rule ids are
 * constraint ids (`constraint/<id>` diagnostics map to `<id>`), levels error/warning/note, and
 * every result has a location with a 1-based line and column.
 */
import { compareStrings, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
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

/** The SARIF log as a value. Pure and deterministic. */
export function sarifLog(diagnostics: readonly Diagnostic[], toolVersion: string): object {
  const sorted = sortDiagnostics(diagnostics);
  const ids = [...new Set(sorted.map((d) => sarifRuleId(d.ruleId)))].sort(compareStrings);
  const index = new Map(ids.map((id, i) => [id, i]));
  const rules = ids.map((id) => ({ id, name: id, shortDescription: { text: id }, ...(id.startsWith('c-') ? { help: { text: `findings explain ${id}` } } : {}) }));
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

export function formatSarif(diagnostics: readonly Diagnostic[], toolVersion: string): string {
  // Output.diagnostics passes no version (format.ts then says 0.0.0): report the package's own.
  const version = toolVersion === '0.0.0' ? VERSION : toolVersion;
  return `${JSON.stringify(sarifLog(diagnostics, version), null, 2)}\n`;
}
