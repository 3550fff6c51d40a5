/** `dedup_key = <category>|<pattern-slug>|<primary-applicable-when>` (docs/contracts/registry.md#canonical-normalization). */

/**
 * The pattern slug: lowercase, punctuation stripped, whitespace collapsed, tokens joined with `-`.
 * "Punctuation" is every character that is neither a letter, a digit nor white space, in any
 * script — so `command/test-pairing` becomes `commandtestpairing`, as in the reference data.
 */
export function patternSlug(pattern: string): string {
  return pattern
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, '')
    .trim()
    .split(/\s+/u)
    .filter((t) => t !== '')
    .join('-');
}

/** The canonical dedup key. The primary work shape is the first `applicable_when` item. */
export function normalizeDedupKey(category: string, pattern: string, applicableWhen: readonly string[]): string {
  return `${category}|${patternSlug(pattern)}|${applicableWhen[0] ?? ''}`;
}

/** Splits a dedup key into its three parts, or null when it does not have that shape. */
export function parseDedupKey(key: string): { category: string; slug: string; primary: string } | null {
  const parts = key.split('|');
  if (parts.length !== 3) return null;
  const [category, slug, primary] = parts as [string, string, string];
  return { category, slug, primary };
}
