/**
 * Deterministic JSON: object keys in a given order (then code-unit order for the rest),
 * 2-space indent, final newline. Used for every JSON file this tool writes.
 */

function orderKeys(value: unknown, rank: ReadonlyMap<string, number>): unknown {
  if (Array.isArray(value)) return value.map((v) => orderKeys(v, rank));
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort((a, b) => {
    const ra = rank.get(a);
    const rb = rank.get(b);
    if (ra !== undefined && rb !== undefined) return ra - rb;
    if (ra !== undefined) return -1;
    if (rb !== undefined) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const k of keys) {
    if (obj[k] !== undefined) out[k] = orderKeys(obj[k], rank);
  }
  return out;
}

/** Each key's place in `keyOrder`, made once per document (not per object: an index of 1,000 constraints has ~20,000). */
const ranks = (keyOrder: readonly string[]): ReadonlyMap<string, number> => new Map(keyOrder.map((k, i) => [k, i]));

/** Pretty, stable JSON document with a trailing newline. */
export function stableStringify(value: unknown, keyOrder: readonly string[] = []): string {
  return `${JSON.stringify(orderKeys(value, ranks(keyOrder)), null, 2)}\n`;
}

/** One-line stable JSON (for JSONL), no trailing newline. */
export function stableLine(value: unknown, keyOrder: readonly string[] = []): string {
  return JSON.stringify(orderKeys(value, ranks(keyOrder)));
}
