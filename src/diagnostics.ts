/** Typed diagnostics: problems in user content are values, never thrown strings. */

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** Repository-relative path with `/` separators (or a display name such as `<stdin>`). */
  readonly file: string;
  /** 1-based line; 0 when the problem concerns the whole file. */
  readonly line: number;
  /** 1-based column; 0 when unknown. */
  readonly column: number;
  readonly severity: Severity;
  /** Stable identifier of the rule that reported it, e.g. `registry/duplicate-id`. */
  readonly ruleId: string;
  readonly message: string;
  /** Extra lines shown under the message (hints, bypass instructions). */
  readonly notes?: readonly string[];
  /**
   * Set on a constraint hit that does not count (docs/hooks.md, "Inline suppressions" and
   * "Baselines"): an inline `findings-ignore` marker, or the constraint's baseline. A suppressed
   * diagnostic is reported in JSON and SARIF but never counts towards exit codes or severities.
   */
  readonly suppressed?: Suppression;
}

/** Why a hit does not count: an in-source marker with its reason, or the constraint's baseline file. */
export interface Suppression {
  readonly kind: 'inSource' | 'baseline';
  readonly reason: string;
}

export interface DiagnosticInit {
  file: string;
  line?: number;
  column?: number;
  severity?: Severity;
  ruleId: string;
  message: string;
  notes?: readonly string[];
  suppressed?: Suppression;
}

/** Builds a diagnostic with defaults (line 0, column 0, severity error). */
export function diagnostic(init: DiagnosticInit): Diagnostic {
  const d: Diagnostic = {
    file: init.file,
    line: init.line ?? 0,
    column: init.column ?? 0,
    severity: init.severity ?? 'error',
    ruleId: init.ruleId,
    message: init.message,
    ...(init.notes && init.notes.length > 0 ? { notes: init.notes } : {}),
    ...(init.suppressed ? { suppressed: init.suppressed } : {}),
  };
  return d;
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Code-unit comparison: locale-independent, total. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The one total order for output: file, line, column, severity, rule, message. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    compareStrings(a.ruleId, b.ruleId) ||
    compareStrings(a.message, b.message)
  );
}

export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(compareDiagnostics);
}

/** Counts by severity; suppressed diagnostics do not count. */
export function countBySeverity(list: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of list) if (d.suppressed === undefined) counts[d.severity] += 1;
  return counts;
}

/** True when an error counts (a suppressed one never does). */
export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error' && d.suppressed === undefined);
}

/** The diagnostics that count (not suppressed). */
export function unsuppressed(list: readonly Diagnostic[]): Diagnostic[] {
  return list.filter((d) => d.suppressed === undefined);
}
