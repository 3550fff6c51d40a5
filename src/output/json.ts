/** The documented JSON diagnostics shape: an array of `{file, line, column, severity, ruleId, message[, notes][, helpUri]}`. */
import { sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { ruleHelpUri } from '../rules/table.js';

export function diagnosticsToJson(diagnostics: readonly Diagnostic[]): object[] {
  return sortDiagnostics(diagnostics).map((d) => ({
    file: d.file,
    line: d.line,
    column: d.column,
    severity: d.severity,
    ruleId: d.ruleId,
    message: d.message,
    ...(d.notes ? { notes: d.notes } : {}),
    // The rule's entry in docs/rules.md (src/rules/table.ts); absent for an id the table lacks.
    helpUri: ruleHelpUri(d.ruleId),
  }));
}

export function formatJson(diagnostics: readonly Diagnostic[]): string {
  return `${JSON.stringify(diagnosticsToJson(diagnostics), null, 2)}\n`;
}
