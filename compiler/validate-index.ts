/** Constraint index rules for `findings validate` (implemented by the compiler work). */
import type { Diagnostic } from '../src/diagnostics.js';
import type { ValidateContext, ValidateTarget } from '../src/validate/index.js';

export async function validateIndexTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  void targets;
  void ctx;
  return [];
}
