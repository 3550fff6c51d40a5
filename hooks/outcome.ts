/** What a hook returns to the CLI: diagnostics, human lines, and whether git must stop. */
import { hasErrors, sortDiagnostics, type Diagnostic } from '../src/diagnostics.js';

export interface HookOutcome {
  readonly diagnostics: Diagnostic[];
  /** Human status lines (stderr when stdout carries machine output). */
  readonly lines: string[];
  /** True when the commit or push must be refused (exit 1). */
  readonly blocked: boolean;
}

/** Sorted, de-duplicated diagnostics and the blocking verdict. Pure. */
export function finish(diagnostics: readonly Diagnostic[], lines: readonly string[]): HookOutcome {
  const seen = new Set<string>();
  const unique = sortDiagnostics(diagnostics).filter((d) => {
    const key = JSON.stringify([d.file, d.line, d.column, d.severity, d.ruleId, d.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { diagnostics: unique, lines: [...lines], blocked: hasErrors(unique) };
}

/** Errors become warnings (merge or rebase in progress: warn only, docs/hooks.md#findings-hook-pre-commit). Pure. */
export function downgrade(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => (d.severity === 'error' ? { ...d, severity: 'warning' } : d));
}
