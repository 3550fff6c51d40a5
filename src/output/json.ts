/** The documented JSON diagnostics shape: an array of `{file, line, column, severity, ruleId, message[, notes]}`. */
import { sortDiagnostics, type Diagnostic } from '../diagnostics.js';

export function diagnosticsToJson(diagnostics: readonly Diagnostic[]): object[] {
  return sortDiagnostics(diagnostics).map((d) => ({
    file: d.file,
    line: d.line,
    column: d.column,
    severity: d.severity,
    ruleId: d.ruleId,
    message: d.message,
    ...(d.notes ? { notes: d.notes } : {}),
  }));
}

export function formatJson(diagnostics: readonly Diagnostic[]): string {
  return `${JSON.stringify(diagnosticsToJson(diagnostics), null, 2)}\n`;
}
