/** Registry rules for `findings validate` (implemented by the registry work). */
import type { Diagnostic } from '../diagnostics.js';
import type { ValidateContext, ValidateTarget } from '../validate/index.js';

export async function validateRegistryTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  void targets;
  void ctx;
  return [];
}
