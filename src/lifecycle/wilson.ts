/**
 * The 95 % Wilson score interval of a precision (successes of n), shown beside the point value by
 * `activate` and `explain` so that "0.95 over 20 hits" reads as the uncertain figure it is
 * (docs/lifecycle.md). The activation rule itself stays the contract's point comparison. Pure.
 */
const Z95 = 1.959963984540054;

/** [low, high] of the Wilson interval, or null when nothing is labelled. */
export function wilsonInterval(successes: number, n: number, z = Z95): readonly [number, number] | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** `95% CI 0.76–0.99` (two decimals, rounded to nearest: the interval is an estimate, not a bar to compare with). */
export function formatInterval(successes: number, n: number): string {
  const w = wilsonInterval(successes, n);
  if (w === null) return '95% CI n/a';
  return `95% CI ${w[0].toFixed(2)}–${w[1].toFixed(2)}`;
}
