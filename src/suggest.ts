/**
 * "Did you mean …" for mistyped commands and subcommands, as git and npm do: the closest known
 * names by edit distance (an adjacent swap counts as one edit, so `fial` is one step from `fail`),
 * kept only when close enough to be a plausible typo.
 */

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). Pure. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known names closest to `word` (ties kept, in the given order); empty when none is close. Pure. */
export function suggestions(word: string, known: readonly string[]): string[] {
  const w = word.toLowerCase();
  // A prefix is the likeliest intent (`findings comp` → compile).
  const prefixed = w.length >= 3 ? known.filter((k) => k.startsWith(w)) : [];
  if (prefixed.length > 0) return prefixed;
  // At most a third of the word may change (and never more than 3 edits), so `x` suggests nothing.
  const limit = Math.min(3, Math.max(1, Math.floor(w.length / 3)));
  let best = Infinity;
  let out: string[] = [];
  for (const k of known) {
    const dist = editDistance(w, k);
    if (dist > limit) continue;
    if (dist < best) [best, out] = [dist, [k]];
    else if (dist === best) out.push(k);
  }
  return out;
}

/** ` (did you mean "x"?)`-style tail for an error message, or '' when nothing is close. Pure. */
export function didYouMean(word: string, known: readonly string[]): string {
  const s = suggestions(word, known);
  if (s.length === 0) return '';
  return `; did you mean ${s.map((x) => `"${x}"`).join(' or ')}?`;
}
