/**
 * The only source of wall-clock time. `FINDINGS_NOW` (an ISO 8601 instant) pins it, so tests
 * and reproducible builds never depend on the real clock.
 */
export function now(env: NodeJS.ProcessEnv = process.env): Date {
  const pinned = env['FINDINGS_NOW'];
  if (pinned) {
    const d = new Date(pinned);
    if (!Number.isNaN(d.getTime())) return d;
  }
  return new Date();
}

/** ISO 8601 UTC without milliseconds, e.g. `2026-04-09T23:22:54Z`. */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `YYYY-MM-DD` in UTC. */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}
