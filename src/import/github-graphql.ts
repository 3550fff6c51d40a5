/**
 * GitHub GraphQL review threads (docs/import.md): the pages `gh api graphql --paginate` prints for
 * the query `findings import github --print-commands` gives — `data.repository.pullRequests.nodes[]`
 * (or one `pullRequest`), each with `reviewThreads.nodes[]` — and bare thread or pull request
 * objects (what `jq '.data.repository.pullRequest.reviewThreads.nodes[]'` leaves). Only GraphQL says
 * whether a thread is resolved (`isResolved`, `resolvedBy`).
 */
import { isPlainObject } from '../jsonl.js';
import { githubBot } from './github-rest.js';
import {
  idOrNull,
  hunkTail,
  commentFrom,
  positiveOrNull,
  shaOrNull,
  stringOrNull,
  type ImportedComment,
  type ImportedThread,
  type Skip,
} from './thread.js';

type Obj = Record<string, unknown>;

const nodesOf = (v: unknown): unknown[] => (isPlainObject(v) && Array.isArray(v['nodes']) ? v['nodes'] : []);
const oid = (v: unknown): string | null => (isPlainObject(v) ? shaOrNull(v['oid']) : null);

/** Whether a value is a GraphQL response page, a pull request node or a review thread node. */
export function graphqlKind(v: unknown): 'page' | 'pull' | 'thread' | null {
  if (!isPlainObject(v)) return null;
  if ('data' in v || ('errors' in v && Array.isArray(v['errors']))) return 'page';
  if ('reviewThreads' in v) return 'pull';
  if ('isResolved' in v && 'comments' in v) return 'thread';
  return null;
}

/** owner/repo, the number and the pull request's URL from a GraphQL URL (`…/pull/12#discussion_r1`). */
function pullOfUrl(url: string | null): { repo: string; pull: number; pullUrl: string } | null {
  const m = url === null ? null : /^(https?:\/\/[^/\s]+)\/([^/\s]+)\/([^/\s]+)\/pull\/(\d+)(?:[#/?]|$)/.exec(url);
  if (!m) return null;
  const pull = Number(m[4]);
  if (!Number.isSafeInteger(pull) || pull < 1) return null;
  return { repo: `${m[2]!}/${m[3]!}`.toLowerCase(), pull, pullUrl: `${m[1]!}/${m[2]!}/${m[3]!}/pull/${pull}` };
}

/** Reads GraphQL values into threads. */
export class GraphqlCollector {
  readonly threads: ImportedThread[] = [];
  readonly skips: Skip[] = [];
  /** Fatal answers (a GraphQL `errors` list with no data): the export is not what was asked for. */
  readonly errors: { line: number; message: string }[] = [];

  add(v: Obj, line: number): void {
    const kind = graphqlKind(v);
    if (kind === 'page') this.page(v, line);
    else if (kind === 'pull') this.pull(v, line);
    else if (kind === 'thread') this.thread(v, null, line);
  }

  private page(v: Obj, line: number): void {
    if (Array.isArray(v['errors']) && v['errors'].length > 0) {
      const first = v['errors'][0];
      const message = isPlainObject(first) && typeof first['message'] === 'string' ? first['message'].slice(0, 300) : 'unknown error';
      if (!isPlainObject(v['data']))
        return void this.errors.push({ line, message: `the GraphQL answer is an error, not data: ${message}` });
      this.skips.push({ line, what: null, reason: `the GraphQL answer carries an error (${message}); its data is read as far as it goes` });
    }
    const data = v['data'];
    const repo = isPlainObject(data) ? data['repository'] : null;
    if (!isPlainObject(repo)) return void this.skips.push({ line, what: null, reason: 'a GraphQL page without data.repository' });
    if (isPlainObject(repo['pullRequest'])) this.pull(repo['pullRequest'], line);
    for (const pr of nodesOf(repo['pullRequests'])) if (isPlainObject(pr)) this.pull(pr, line);
  }

  private pull(pr: Obj, line: number): void {
    const url = stringOrNull(pr['url']);
    const threads = pr['reviewThreads'];
    if (isPlainObject(threads) && isPlainObject(threads['pageInfo']) && threads['pageInfo']['hasNextPage'] === true)
      this.skips.push({
        line,
        what: url,
        reason: 'this pull request has more review threads than one page holds; the rest are not in the export',
      });
    for (const t of nodesOf(threads)) if (isPlainObject(t)) this.thread(t, pullOfUrl(url), line);
  }

  private thread(t: Obj, pr: { repo: string; pull: number; pullUrl: string } | null, line: number): void {
    const nodes = nodesOf(t['comments']).filter(isPlainObject);
    const first = nodes[0];
    if (first === undefined) return void this.skips.push({ line, what: stringOrNull(t['id']), reason: 'a review thread with no comments' });
    const where = pr ?? pullOfUrl(stringOrNull(first['url']));
    if (where === null) return void this.skips.push({ line, what: stringOrNull(t['id']), reason: 'names no pull request (no "url")' });
    const comments: ImportedComment[] = [];
    for (const n of nodes) {
      const author = isPlainObject(n['author']) ? n['author'] : null;
      const login = author ? stringOrNull(author['login']) : null;
      const comment = commentFrom({
        id: n['databaseId'],
        createdAt: n['createdAt'],
        updatedAt: n['updatedAt'] ?? n['lastEditedAt'],
        body: n['body'],
        author: login,
        bot: githubBot(author === null ? null : { type: author['__typename'] }, login),
        url: stringOrNull(n['url']),
      });
      if (comment !== null) comments.push(comment);
      else
        this.skips.push({
          line,
          what: idOrNull(n['databaseId']),
          reason: 'a comment without "databaseId", "createdAt" or "body" was left out of its thread',
        });
    }
    const root = comments[0];
    if (root === undefined) return;
    const head = nodes[0]!;
    const resolvedBy = isPlainObject(t['resolvedBy']) ? stringOrNull(t['resolvedBy']['login']) : null;
    const hunk = stringOrNull(head['diffHunk']);
    this.threads.push({
      forge: 'github',
      key: `github:${where.repo}#${root.id}`,
      pull: where.pull,
      pullUrl: where.pullUrl,
      path: stringOrNull(t['path']) ?? stringOrNull(head['path']),
      line: positiveOrNull(t['line']) ?? positiveOrNull(head['line']),
      commit: oid(head['commit']),
      originalLine: positiveOrNull(t['originalLine']) ?? positiveOrNull(head['originalLine']),
      originalCommit: oid(head['originalCommit']),
      diffHunk: hunkTail(hunk),
      side: t['diffSide'] === 'LEFT' || t['diffSide'] === 'RIGHT' ? t['diffSide'] : null,
      comments,
      resolved: typeof t['isResolved'] === 'boolean' ? t['isResolved'] : null,
      resolvedBy,
      resolvedAt: null,
      exportLine: line,
    });
  }
}
