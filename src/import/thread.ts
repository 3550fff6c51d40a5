/**
 * The one shape every reader produces (docs/import.md): a review thread on one pull or merge
 * request, its comments in order, where it is anchored, and whether the forge resolved it. The
 * readers (github-rest.ts, github-graphql.ts, gitlab.ts) only translate field names; judging and
 * mapping happen in map.ts.
 */

export type Forge = 'github' | 'gitlab';

export interface ImportedComment {
  /** The comment's (note's) id on the forge, as a string (REST `id` = GraphQL `databaseId`). */
  readonly id: string;
  readonly author: string | null;
  /** The forge says the author is a bot (GitHub `user.type` / `__typename` "Bot"; GitLab `author.bot`). */
  readonly bot: boolean;
  /** The body, cut at BODY_KEEP characters (a finding keeps at most 2,000 of a whole thread). */
  readonly body: string;
  /** Code points of the body beyond BODY_KEEP, not kept in memory. */
  readonly omitted: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly url: string | null;
}

export interface ImportedThread {
  readonly forge: Forge;
  /** Stable key: `github:<owner>/<repo>#<first comment id>`, `gitlab:<discussion id>`. */
  readonly key: string;
  /** Pull request number or merge request iid. */
  readonly pull: number;
  /** The pull or merge request's web URL, or null when the export does not give one. */
  readonly pullUrl: string | null;
  readonly path: string | null;
  /** The commented line at `commit` (GitHub `line`, GitLab `new_line`), else null. */
  readonly line: number | null;
  readonly commit: string | null;
  /** The line where the comment was first made (GitHub `original_line`, GitLab `old_line`). */
  readonly originalLine: number | null;
  readonly originalCommit: string | null;
  /** The end of the diff hunk GitHub shows above the comment (hunkTail): its last line is the commented line. */
  readonly diffHunk: string | null;
  /** The commented side: RIGHT (new code) or LEFT (removed code). */
  readonly side: 'LEFT' | 'RIGHT' | null;
  /** First comment first. */
  readonly comments: readonly ImportedComment[];
  /** null: the export does not say (GitHub REST never does). */
  readonly resolved: boolean | null;
  readonly resolvedBy: string | null;
  readonly resolvedAt: string | null;
  /** The line of the export where this thread's first comment was read (for skip reasons). */
  readonly exportLine: number;
}

/** A thread (or comment) the import leaves out, and why. */
export interface Skip {
  readonly line: number;
  readonly reason: string;
  /** The thread's key or the comment's id when known. */
  readonly what: string | null;
}

/** Characters of a comment's body kept in memory while the export is read. */
export const BODY_KEEP = 8_000;

/**
 * A copy of `s` that does not keep the string it was cut from alive: V8 may keep a slice as a view
 * of its parent, and 10,000 views of 2 MB bodies would hold the whole export.
 */
export function detached(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/** The last two lines of a diff hunk, at most 1,000 characters: what the mapper reads of it (its last line). */
export function hunkTail(hunk: string | null): string | null {
  if (hunk === null) return null;
  const t = hunk.replace(/[\r\n]+$/, '');
  const last = t.lastIndexOf('\n');
  const before = last <= 0 ? -1 : t.lastIndexOf('\n', last - 1);
  return detached(t.slice(Math.max(before + 1, t.length - 1_000)));
}

/** A body as kept: at most BODY_KEEP characters (not splitting a surrogate pair), and how many code points were left out. */
export function keptBody(body: string): { body: string; omitted: number } {
  if (body.length <= BODY_KEEP) return { body, omitted: 0 };
  const end = /[\uD800-\uDBFF]/.test(body[BODY_KEEP - 1]!) ? BODY_KEEP - 1 : BODY_KEEP;
  return { body: detached(body.slice(0, end)), omitted: [...body.slice(end)].length };
}

/** A comment's fields as one reader names them: the values are judged here, the same way for every forge. */
export interface RawComment {
  readonly id: unknown;
  readonly createdAt: unknown;
  readonly updatedAt: unknown;
  readonly body: unknown;
  readonly author: string | null;
  readonly bot: boolean;
  readonly url: string | null;
}

/** The comment a reader keeps, or null when it has no usable id, creation time or body. */
export function commentFrom(raw: RawComment): ImportedComment | null {
  const id = idOrNull(raw.id);
  const createdAt = isoSecond(raw.createdAt);
  const body = stringOrNull(raw.body);
  if (id === null || createdAt === null || body === null) return null;
  return {
    id,
    author: raw.author,
    bot: raw.bot,
    ...keptBody(body),
    createdAt,
    updatedAt: isoSecond(raw.updatedAt) ?? createdAt,
    url: raw.url,
  };
}

/** Normalises a forge timestamp to ISO 8601 UTC to the second (`2026-01-02T03:04:05Z`), or null. */
export function isoSecond(v: unknown): string | null {
  if (typeof v !== 'string' || v.length > 64) return null;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) return null;
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** A full commit id (40 or 64 lowercase hex), or null. */
export function shaOrNull(v: unknown): string | null {
  return typeof v === 'string' && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(v) ? v : null;
}

/** A positive integer, or null. */
export function positiveOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : null;
}

/** A string, or null. */
export function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** An id (number or string) as a short string, or null. */
export function idOrNull(v: unknown): string | null {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  if (typeof v === 'string' && v.length >= 1 && v.length <= 100 && /^[A-Za-z0-9_=+/-]+$/.test(v)) return v;
  return null;
}
