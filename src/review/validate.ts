/** Review ledger, task and roles rules for `findings validate` (implemented by the review-ledger work). */
import type { Diagnostic } from '../diagnostics.js';
import type { ValidateContext, ValidateTarget } from '../validate/index.js';

export async function validateLedgerTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  void targets;
  void ctx;
  return [];
}

export async function validateTaskTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  void targets;
  void ctx;
  return [];
}

export async function validateRolesTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  void targets;
  void ctx;
  return [];
}
