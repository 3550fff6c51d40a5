/** The progress line of a long run, in the older positional form (`check --all` uses it); see src/output/progress.ts. Pure. */
import { renderProgress } from '../output/progress.js';

export function progressLine(
  done: number,
  total: number,
  elapsedMs: number,
  what: { readonly verb: string; readonly unit: string } = { verb: 'measuring', unit: 'commits' },
): string {
  return renderProgress({ done, total, startedAt: 0, now: elapsedMs, verb: what.verb, unit: what.unit });
}
