/**
 * Reader ranking (docs/contracts/registry.md#reader-ranking-rules; docs/registry.md): active entries only,
 * severity first, then scope match (applicable_when overlap, language overlap, path overlap),
 * then literal keyword overlap with the goal text, then id — a total order. Pure.
 */
import { compareStrings } from '../diagnostics.js';
import type { RegistryEntry } from '../types.js';
import { latestById } from './latest.js';

/** The contract's default cap on the injected set. */
export const DEFAULT_LIMIT = 5;

/** Severity buckets, most severe first; aliases share a bucket (docs/registry.md). Unknown → last. */
const SEVERITY_BUCKET: Readonly<Record<string, number>> = {
  critical: 0,
  blocker: 0,
  high: 1,
  significant: 1,
  major: 1,
  medium: 2,
  moderate: 2,
  low: 3,
  minor: 3,
  nit: 4,
};
const UNKNOWN_SEVERITY = 5;

export function severityRank(severity: string): number {
  return SEVERITY_BUCKET[severity.trim().toLowerCase()] ?? UNKNOWN_SEVERITY;
}

export interface RankQuery {
  /** Current work shapes (`--when`). */
  readonly when?: readonly string[];
  /** Languages of the work (`--lang`). */
  readonly languages?: readonly string[];
  /** Paths being changed (`--path`). */
  readonly paths?: readonly string[];
  /** Goal, plan or review target (`--text`). */
  readonly text?: string;
  /** Cap (default 5). */
  readonly limit?: number;
}

export interface RankMatch {
  readonly severity: number;
  readonly when: number;
  readonly languages: number;
  readonly paths: number;
  readonly keywords: number;
}

export interface RankedEntry {
  readonly entry: RegistryEntry;
  readonly match: RankMatch;
}

/** File extension → language names a registry might use, for path overlap. */
const EXTENSION_LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  ts: ['typescript', 'ts'],
  tsx: ['typescript', 'tsx'],
  js: ['javascript', 'js'],
  mjs: ['javascript', 'js'],
  cjs: ['javascript', 'js'],
  jsx: ['javascript', 'jsx'],
  go: ['go', 'golang'],
  py: ['python', 'py'],
  rs: ['rust', 'rs'],
  rb: ['ruby', 'rb'],
  java: ['java'],
  kt: ['kotlin'],
  sh: ['shell', 'bash', 'sh'],
  bash: ['shell', 'bash'],
  md: ['markdown', 'md'],
  json: ['json'],
  yml: ['yaml', 'yml'],
  yaml: ['yaml', 'yml'],
  c: ['c'],
  h: ['c', 'cpp'],
  cpp: ['cpp', 'c++'],
  cs: ['csharp', 'c#'],
  swift: ['swift'],
  sql: ['sql'],
};

/** Words too common to count as a literal keyword match. */
const STOPWORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'that',
  'this',
  'from',
  'are',
  'not',
  'but',
  'into',
  'when',
  'then',
  'than',
  'can',
  'does',
  'its',
  'has',
  'have',
  'was',
  'were',
  'will',
  'must',
  'should',
  'any',
  'all',
]);

/** Lowercase word tokens of at least 3 characters, stopwords dropped. */
export function keywords(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of text.toLowerCase().split(/[^\p{L}\p{N}_]+/u)) {
    if (t.length >= 3 && !STOPWORDS.has(t)) out.add(t);
  }
  return out;
}

const lower = (xs: readonly string[] | undefined): string[] => (xs ?? []).map((x) => x.trim().toLowerCase()).filter((x) => x !== '');

function entryText(e: RegistryEntry): string {
  return [e.pattern, e.detection_question, e.checklist_item, e.category, e.source?.file ?? ''].join('\n').toLowerCase();
}

/** A path as lower-case `/`-separated segments (`./`, `\\`, repeated and trailing `/` normalized). */
export function pathSegments(p: string): string[] {
  return p
    .trim()
    .toLowerCase()
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
}

/** Path-like tokens of prose: words with a `/` in them (`src/registry`, `hooks/pre-push.ts`), URLs excluded. */
export function pathTokens(text: string): string[][] {
  const out: string[][] = [];
  for (const raw of text.split(/[\s`'"()[\]{}<>,;]+/)) {
    const t = raw.replace(/[.:!?]+$/, '');
    if (!t.includes('/') || t.includes('://')) continue;
    const segs = pathSegments(t);
    if (segs.length > 0) out.push(segs);
  }
  return out;
}

const isPrefix = (prefix: readonly string[], of: readonly string[]): boolean =>
  prefix.length <= of.length && prefix.every((s, i) => s === of[i]);

/**
 * Whether an entry's path `e` touches a queried path, by whole segments: the same path, `e` is a
 * folder containing it, `e` lies under it, or `e` lies in the queried path's folder (`folder`: the query itself
 * when it ends with `/`, else its parent; empty for a top-level file).
 */
function touches(e: readonly string[], query: { segs: readonly string[]; folder: readonly string[] }): boolean {
  return isPrefix(e, query.segs) || isPrefix(query.segs, e) || (query.folder.length > 0 && isPrefix(query.folder, e));
}

interface PathQuery {
  readonly segs: readonly string[];
  readonly folder: readonly string[];
  readonly languages: readonly string[];
}

function pathQuery(raw: string): PathQuery | null {
  const segs = pathSegments(raw);
  if (segs.length === 0) return null;
  const isFolder = /[/\\]\s*$/.test(raw);
  const base = isFolder ? '' : segs[segs.length - 1]!;
  const ext = base.includes('.') ? base.slice(base.lastIndexOf('.') + 1) : '';
  return { segs, folder: isFolder ? segs : segs.slice(0, -1), languages: EXTENSION_LANGUAGES[ext] ?? (ext ? [ext] : []) };
}

/**
 * How many of the given paths the entry touches: its `source.file` or a path named in its text
 * is the path, a folder of it, or in the path's folder — compared by whole `/`-separated segments,
 * never as substrings of prose — or the path's extension is of one of the entry's languages.
 */
function pathOverlap(e: RegistryEntry, paths: readonly PathQuery[]): number {
  const langs = new Set(lower(e.applicable_languages));
  const own: string[][] = [];
  const file = typeof e.source?.file === 'string' ? pathSegments(e.source.file) : [];
  if (file.length > 0) own.push(file);
  own.push(...pathTokens([e.pattern, e.detection_question, e.checklist_item].join('\n')));
  let n = 0;
  for (const q of paths) {
    if (q.languages.some((l) => langs.has(l)) || own.some((p) => touches(p, q))) n += 1;
  }
  return n;
}

interface Prepared {
  readonly when: ReadonlySet<string>;
  readonly langs: ReadonlySet<string>;
  readonly words: ReadonlySet<string>;
  readonly paths: readonly PathQuery[];
}

function prepare(q: RankQuery): Prepared {
  return {
    when: new Set(lower(q.when)),
    langs: new Set(lower(q.languages)),
    words: keywords(q.text ?? ''),
    paths: (q.paths ?? []).flatMap((p) => pathQuery(p) ?? []),
  };
}

function score(e: RegistryEntry, q: Prepared): RankMatch {
  // The entry's text is only needed for path and keyword overlap.
  const text = q.words.size > 0 ? entryText(e) : '';
  let kw = 0;
  if (q.words.size > 0) {
    const entryWords = keywords(text);
    for (const w of q.words) if (entryWords.has(w)) kw += 1;
  }
  return {
    severity: severityRank(e.severity),
    when: lower(e.applicable_when).filter((w) => q.when.has(w)).length,
    languages: lower(e.applicable_languages).filter((l) => q.langs.has(l)).length,
    paths: q.paths.length > 0 ? pathOverlap(e, q.paths) : 0,
    keywords: kw,
  };
}

/** Scores one entry against a query. */
export function matchEntry(e: RegistryEntry, q: RankQuery): RankMatch {
  return score(e, prepare(q));
}

/** The total order: severity, then each overlap (more first), then id. */
export function compareRanked(a: RankedEntry, b: RankedEntry): number {
  return (
    a.match.severity - b.match.severity ||
    b.match.when - a.match.when ||
    b.match.languages - a.match.languages ||
    b.match.paths - a.match.paths ||
    b.match.keywords - a.match.keywords ||
    compareStrings(a.entry.id, b.entry.id)
  );
}

/**
 * Ranks the active entries for a query and returns at most `limit` of them. `entries` are in file
 * order; of several with one id only the last counts (an appended update, docs/registry.md).
 */
export function rankEntries(entries: readonly RegistryEntry[], q: RankQuery = {}): RankedEntry[] {
  const limit = q.limit ?? DEFAULT_LIMIT;
  const prepared = prepare(q);
  return latestById(entries.map((entry) => ({ entry })))
    .map((l) => l.entry)
    .filter((e) => e.status === 'active')
    .map((entry) => ({ entry, match: score(entry, prepared) }))
    .sort(compareRanked)
    .slice(0, limit);
}
