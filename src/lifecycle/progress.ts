/** The progress line of a long history walk (docs/lifecycle.md): done/total, rate, ETA. Pure. */
export function progressLine(done: number, total: number, elapsedMs: number): string {
  const seconds = Math.max(elapsedMs / 1000, 0.001);
  const rate = done / seconds;
  const left = total > done && rate > 0 ? Math.ceil((total - done) / rate) : 0;
  const eta = left >= 60 ? `${Math.floor(left / 60)}m${String(left % 60).padStart(2, '0')}s` : `${left}s`;
  return `measuring: ${done}/${total} commits, ${Math.round(rate)} commits/s, ETA ${eta}`;
}
