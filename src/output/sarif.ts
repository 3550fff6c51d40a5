/** SARIF 2.1.0 output (implemented by the hooks issue). */
import type { Diagnostic } from '../diagnostics.js';

export function formatSarif(diagnostics: readonly Diagnostic[], toolVersion: string): string {
  void diagnostics;
  void toolVersion;
  throw new Error('SARIF output is not implemented yet');
}
