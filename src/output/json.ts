/**
 * The documented JSON diagnostics shape (docs/hooks.md, "Output formats"): an array of
 * `{file, line, column, severity, ruleId, message[, notes][, suppressed, reason][, baselined][, helpUri]}`.
 * A suppressed hit keeps its severity but does not count: `suppressed: true` with the marker's
 * `reason`; a hit in the constraint's baseline also carries `baselined: true`.
 */
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
    ...(d.suppressed
      ? { suppressed: true, reason: d.suppressed.reason, ...(d.suppressed.kind === 'baseline' ? { baselined: true } : {}) }
      : {}),
    // The rule's entry in docs/rules.md (src/rules/table.ts); absent for an id the table lacks.
    helpUri: ruleHelpUri(d.ruleId),
  }));
}

export function formatJson(diagnostics: readonly Diagnostic[]): string {
  return `${JSON.stringify(diagnosticsToJson(diagnostics), null, 2)}\n`;
}
