/** The progress line of a long run (a history walk, docs/lifecycle.md; `check --all`): done/total, rate, ETA. Pure. */
export function progressLine(
  done: number,
  total: number,
  elapsedMs: number,
  what: { readonly verb: string; readonly unit: string } = { verb: 'measuring', unit: 'commits' },
): string {
  const seconds = Math.max(elapsedMs / 1000, 0.001);
  const rate = done / seconds;
  const left = total > done && rate > 0 ? Math.ceil((total - done) / rate) : 0;
  const eta = left >= 60 ? `${Math.floor(left / 60)}m${String(left % 60).padStart(2, '0')}s` : `${left}s`;
  return `${what.verb}: ${done}/${total} ${what.unit}, ${Math.round(rate)} ${what.unit}/s, ETA ${eta}`;
}
