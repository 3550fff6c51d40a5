/**
 * Lexical clustering of review comments (docs/import.md, "Classes"): each comment is a TF-IDF
 * vector of the reviewer's words and the commented code; two comments whose cosine similarity is
 * at least SIMILARITY_THRESHOLD are linked, and each connected group of two or more is one class,
 * named by its top terms. Connected components do not depend on the order comments are read in,
 * so the same export always gives the same classes. Pure and offline.
 */

/**
 * Cosine similarity at or above which two comments are about the same defect. Review comments are
 * short: three differently worded comments on one defect (test/fixtures/import) score 0.32–0.39
 * with one another and at most 0.05 with comments on other defects; 0.3 keeps the first linked and
 * the second apart.
 */
export const SIMILARITY_THRESHOLD = 0.3;
/**
 * Two comments are compared when they share a term that at most this many comments use: a term
 * in more (`function`, `return` in a large export) still adds to the similarity of the pairs
 * compared, but finding pairs through it would compare every comment with every other.
 */
const LINKING_DF = 300;
/** Terms a class name is made of. */
const NAME_TERMS = 3;

/**
 * English function words and the words every review comment uses ("please", "should", "here"):
 * they say nothing about which defect a comment is about.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could do does did for from has have had he her him his how i if in into is it its ' +
    'just me my no not of on or our out over she so some such than that the their them then there these they this those to ' +
    'too up us was we were what when where which while who why will with would you your yours also any all more most other ' +
    'only own same very again once here please pls should shall must might may maybe think thinks thought guess let lets ' +
    'make makes made use used using instead like need needs want wants better best good bad fine nice thanks thank way ' +
    'one two get gets got go going new old now still already yet even because since about above below after before ' +
    'both each few many much per via etc e.g i.e ok okay yes nit nitpick suggestion issue todo question thought note ' +
    'chore praise typo polish quibble blocking non-blocking see look looks seems seem sure really actually probably ' +
    'don doesn didn isn aren wasn won can cannot t s re ve ll d m'
  ).split(' '),
);

/** The terms of a text: words and identifiers split at case changes and punctuation, lowercased, stop words dropped. */
export function terms(text: string): string[] {
  const out: string[] = [];
  const split = text
    .slice(0, 4_000)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  for (const w of split) {
    if (w.length < 2 || w.length > 30 || /^\d+$/.test(w) || STOP_WORDS.has(w)) continue;
    out.push(w);
  }
  return out;
}

export interface LexicalDoc {
  /** A stable key (the thread key): the total order for names. */
  readonly key: string;
  readonly text: string;
}

/** Union-find over document indexes. */
class Groups {
  private readonly parent: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n).map((_, i) => i);
  }
  find(i: number): number {
    let r = i;
    while (this.parent[r] !== r) r = this.parent[r]!;
    while (this.parent[i] !== r) {
      const next = this.parent[i]!;
      this.parent[i] = r;
      i = next;
    }
    return r;
  }
  join(a: number, b: number): void {
    const x = this.find(a);
    const y = this.find(b);
    if (x !== y) this.parent[Math.max(x, y)] = Math.min(x, y);
  }
}

/**
 * The lexical class of each document that shares one with another, by key; documents alike to
 * none are left out. Names are the cluster's top terms (summed TF-IDF weight, then the term)
 * joined by `-`; a name two clusters would share gets `-2`, `-3`… in the order of their first key.
 */
export function lexicalClasses(docs: readonly LexicalDoc[]): Map<string, string> {
  const sorted = [...docs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const n = sorted.length;
  const out = new Map<string, string>();
  if (n < 2) return out;
  // Term frequencies per document, and document frequencies.
  const tfs: Map<string, number>[] = sorted.map((d) => {
    const tf = new Map<string, number>();
    for (const t of terms(d.text)) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const df = new Map<string, number>();
  for (const tf of tfs) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  // Smoothed idf (ln((1 + n) / (1 + df)) + 1) and sublinear tf (1 + ln tf), L2-normalised.
  const termIds = new Map<string, number>();
  const vectors = tfs.map((tf) => {
    const entries: [number, number][] = [];
    let norm = 0;
    for (const [t, f] of tf) {
      let id = termIds.get(t);
      if (id === undefined) termIds.set(t, (id = termIds.size));
      const w = (1 + Math.log(f)) * (Math.log((1 + n) / (1 + df.get(t)!)) + 1);
      entries.push([id, w]);
      norm += w * w;
    }
    const scale = norm === 0 ? 0 : 1 / Math.sqrt(norm);
    return entries.map(([id, w]): [number, number] => [id, w * scale]);
  });
  const idDf = [...termIds.keys()].map((t) => df.get(t)!);
  const linking = (id: number): boolean => idDf[id]! <= LINKING_DF;
  const postings: [number, number][][] = Array.from({ length: termIds.size }, () => []);
  vectors.forEach((v, doc) => {
    for (const [id, w] of v) if (linking(id)) postings[id]!.push([doc, w]);
  });
  // Each document's common terms, for the part of a pair's dot product the postings leave out.
  const common = vectors.map((v) => new Map(v.filter(([id]) => !linking(id))));
  // Dot products with every later document that shares a linking term, through the postings.
  const groups = new Groups(n);
  const score = new Float64Array(n);
  const touched: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const [id, w] of vectors[i]!) {
      if (!linking(id)) continue;
      for (const [j, x] of postings[id]!) {
        if (j <= i) continue;
        if (score[j] === 0) touched.push(j);
        score[j] = score[j]! + w * x;
      }
    }
    const mine = common[i]!;
    for (const j of touched) {
      let s = score[j]!;
      if (mine.size > 0) for (const [id, x] of common[j]!) s += (mine.get(id) ?? 0) * x;
      // A hair under the threshold counts: the sum of rounded products must not flip a link.
      if (s >= SIMILARITY_THRESHOLD - 1e-12) groups.join(i, j);
      score[j] = 0;
    }
    touched.length = 0;
  }
  const members = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = groups.find(i);
    members.set(r, [...(members.get(r) ?? []), i]);
  }
  const names = new Map<string, number>();
  const idToTerm = [...termIds.keys()];
  // Roots are the smallest index of each group, so this visits groups in the order of their first key.
  for (const [, list] of [...members].sort(([a], [b]) => a - b)) {
    if (list.length < 2) continue;
    const weight = new Map<number, number>();
    for (const i of list) for (const [id, w] of vectors[i]!) weight.set(id, (weight.get(id) ?? 0) + w);
    const top = [...weight]
      .map(([id, w]) => ({ term: idToTerm[id]!, w: Math.round(w * 1e9) }))
      .sort((a, b) => b.w - a.w || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
      .slice(0, NAME_TERMS)
      .map((x) => x.term);
    // Read in the order the first comment uses them ("console-log-logger", not "log-console-logger").
    const firstTerms = terms(sorted[list[0]!]!.text);
    const at = (term: string): number => {
      const i = firstTerms.indexOf(term);
      return i === -1 ? Number.MAX_SAFE_INTEGER : i;
    };
    top.sort((a, b) => at(a) - at(b) || (a < b ? -1 : a > b ? 1 : 0));
    const base = (top.join('-') || 'review-comments').slice(0, 58).replace(/-+$/, '');
    const seen = (names.get(base) ?? 0) + 1;
    names.set(base, seen);
    const name = seen === 1 ? base : `${base}-${seen}`;
    for (const i of list) out.set(sorted[i]!.key, name);
  }
  return out;
}
