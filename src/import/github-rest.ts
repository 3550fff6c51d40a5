/**
 * GitHub REST review comments (`gh api --paginate repos/{owner}/{repo}/pulls/comments`, docs/import.md):
 * one object per comment; a reply names its thread's first comment in `in_reply_to_id`. The
 * comments are kept in a reduced form (the fields the mapper reads, a body cut at BODY_KEEP) until
 * the export ends, then grouped into threads. REST never says whether a thread is resolved.
 */
import { isPlainObject } from '../jsonl.js';
import {
  idOrNull,
  hunkTail,
  isoSecond,
  keptBody,
  positiveOrNull,
  shaOrNull,
  stringOrNull,
  type ImportedComment,
  type ImportedThread,
  type Skip,
} from './thread.js';

/** Whether a JSON value looks like one REST review comment. */
export function isRestComment(v: unknown): v is Record<string, unknown> {
  return (
    isPlainObject(v) &&
    ('pull_request_review_id' in v || 'diff_hunk' in v || 'original_commit_id' in v) &&
    'id' in v &&
    ('html_url' in v || 'pull_request_url' in v)
  );
}

/** owner/repo and the pull number from a comment's URLs (github.com or a GitHub Enterprise host). */
export function pullOf(c: Record<string, unknown>): { repo: string; pull: number; pullUrl: string | null } | null {
  const html = stringOrNull(c['html_url']);
  const web = html === null ? null : /^(https?:\/\/[^/\s]+)\/([^/\s]+)\/([^/\s]+)\/pull\/(\d+)(?:[#/?]|$)/.exec(html);
  if (web) {
    const pull = Number(web[4]);
    if (Number.isSafeInteger(pull) && pull >= 1)
      return { repo: `${web[2]!}/${web[3]!}`.toLowerCase(), pull, pullUrl: `${web[1]!}/${web[2]!}/${web[3]!}/pull/${pull}` };
  }
  const api = stringOrNull(c['pull_request_url']);
  const m = api === null ? null : /\/repos\/([^/\s]+)\/([^/\s]+)\/pulls\/(\d+)$/.exec(api);
  if (m) {
    const pull = Number(m[3]);
    if (Number.isSafeInteger(pull) && pull >= 1) return { repo: `${m[1]!}/${m[2]!}`.toLowerCase(), pull, pullUrl: null };
  }
  return null;
}

interface Kept {
  readonly comment: ImportedComment;
  readonly replyTo: string | null;
  readonly repo: string;
  readonly pull: number;
  readonly pullUrl: string | null;
  readonly path: string | null;
  readonly line: number | null;
  readonly originalLine: number | null;
  readonly commit: string | null;
  readonly originalCommit: string | null;
  readonly diffHunk: string | null;
  readonly side: 'LEFT' | 'RIGHT' | null;
  readonly exportLine: number;
}

/** Whether a GitHub user object names a bot. */
export function githubBot(user: unknown, login: string | null): boolean {
  return (isPlainObject(user) && user['type'] === 'Bot') || (login !== null && /\[bot\]$/i.test(login));
}

/** Collects REST comments as they stream in, then groups them into threads. */
export class RestCollector {
  private readonly kept = new Map<string, Kept>();
  readonly skips: Skip[] = [];

  /** Takes one comment object; a comment it cannot use becomes a skip with its reason. */
  add(c: Record<string, unknown>, exportLine: number): void {
    const id = idOrNull(c['id']);
    if (id === null) return void this.skips.push({ line: exportLine, what: null, reason: 'a review comment without a usable "id"' });
    const where = pullOf(c);
    if (where === null)
      return void this.skips.push({ line: exportLine, what: id, reason: 'names no pull request ("html_url" or "pull_request_url")' });
    const createdAt = isoSecond(c['created_at']);
    if (createdAt === null) return void this.skips.push({ line: exportLine, what: id, reason: 'has no valid "created_at"' });
    const body = stringOrNull(c['body']);
    if (body === null) return void this.skips.push({ line: exportLine, what: id, reason: 'has no "body"' });
    const user = c['user'];
    const login = isPlainObject(user) ? stringOrNull(user['login']) : null;
    const side = c['side'] === 'LEFT' || c['side'] === 'RIGHT' ? c['side'] : null;
    const hunk = stringOrNull(c['diff_hunk']);
    const key = `${where.repo}#${id}`;
    if (this.kept.has(key))
      return void this.skips.push({ line: exportLine, what: id, reason: 'the same comment appears twice; the first is kept' });
    this.kept.set(key, {
      comment: {
        id,
        author: login,
        bot: githubBot(user, login),
        ...keptBody(body),
        createdAt,
        updatedAt: isoSecond(c['updated_at']) ?? createdAt,
        url: stringOrNull(c['html_url']),
      },
      replyTo: idOrNull(c['in_reply_to_id']),
      repo: where.repo,
      pull: where.pull,
      pullUrl: where.pullUrl,
      path: stringOrNull(c['path']),
      line: positiveOrNull(c['line']),
      originalLine: positiveOrNull(c['original_line']),
      commit: shaOrNull(c['commit_id']),
      originalCommit: shaOrNull(c['original_commit_id']),
      diffHunk: hunkTail(hunk),
      side,
      exportLine,
    });
  }

  /** The threads, each first comment with its replies in creation order. */
  threads(): ImportedThread[] {
    const replies = new Map<string, Kept[]>();
    const roots: Kept[] = [];
    for (const k of this.kept.values()) {
      if (k.replyTo === null) roots.push(k);
      else {
        const rootKey = `${k.repo}#${k.replyTo}`;
        const root = this.kept.get(rootKey);
        // GitHub points every reply at the thread's first comment; follow one more step for older data.
        const resolvedRoot = root?.replyTo != null ? `${k.repo}#${root.replyTo}` : rootKey;
        if (!this.kept.has(resolvedRoot)) {
          this.skips.push({
            line: k.exportLine,
            what: k.comment.id,
            reason: `a reply to comment ${k.replyTo}, which is not in the export`,
          });
          continue;
        }
        replies.set(resolvedRoot, [...(replies.get(resolvedRoot) ?? []), k]);
      }
    }
    return roots.map((r) => {
      const rs = (replies.get(`${r.repo}#${r.comment.id}`) ?? []).sort(
        (a, b) => (a.comment.createdAt < b.comment.createdAt ? -1 : a.comment.createdAt > b.comment.createdAt ? 1 : 0) || idOrder(a, b),
      );
      return {
        forge: 'github',
        key: `github:${r.repo}#${r.comment.id}`,
        pull: r.pull,
        pullUrl: r.pullUrl,
        path: r.path,
        line: r.line,
        commit: r.commit,
        originalLine: r.originalLine,
        originalCommit: r.originalCommit,
        diffHunk: r.diffHunk,
        side: r.side,
        comments: [r.comment, ...rs.map((x) => x.comment)],
        resolved: null,
        resolvedBy: null,
        resolvedAt: null,
        exportLine: r.exportLine,
      } satisfies ImportedThread;
    });
  }
}

/** Numeric ids in numeric order (ids of one forge have one shape). */
function idOrder(a: Kept, b: Kept): number {
  const x = a.comment.id;
  const y = b.comment.id;
  return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
}
