/** GitHub workflow-command output (implemented by the hooks issue). */
import type { Diagnostic } from '../diagnostics.js';

export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  void diagnostics;
  throw new Error('GitHub output is not implemented yet');
}
