/** The review-ledger push gate (implemented by the review-ledger work); called by `findings hook pre-push`. */
import type { Diagnostic } from '../diagnostics.js';

export interface PushGateInput {
  /** Repository root (absolute). */
  readonly root: string;
  /** Full sha of the pushed tip; the ledger is read at this commit. */
  readonly commit: string;
  /** Local ref being pushed, e.g. `refs/heads/feature/T-1`. */
  readonly localRef: string;
}

/** Diagnostics (errors block the push) for open findings of the task the pushed branch belongs to. */
export async function reviewPushGate(input: PushGateInput): Promise<Diagnostic[]> {
  void input;
  return [];
}
