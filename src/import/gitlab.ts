/**
 * GitLab merge request discussions (`GET /projects/:id/merge_requests/:iid/discussions`,
 * docs/import.md): a discussion holds notes; a line comment's first note is a `DiffNote` with a
 * `position` (base_sha, start_sha, head_sha, old_path, new_path, old_line, new_line). Resolution
 * is per note (`resolvable`, `resolved`, `resolved_by`, `resolved_at`). System notes ("changed this
 * line in version 2") are not review comments and are left out. GitLab's notes carry no web URL:
 * `projectUrl` (from `--project-url`) builds one.
 */
import { isPlainObject } from '../jsonl.js';
import {
  idOrNull,
  isoSecond,
  commentFrom,
  positiveOrNull,
  shaOrNull,
  stringOrNull,
  type ImportedComment,
  type ImportedThread,
  type Skip,
} from './thread.js';

type Obj = Record<string, unknown>;

/** Whether a value looks like one GitLab discussion. */
export function isGitlabDiscussion(v: unknown): v is Obj {
  return isPlainObject(v) && Array.isArray(v['notes']) && 'id' in v && ('individual_note' in v || v['notes'].length > 0);
}

/** GitLab marks bots on the user (`bot: true`); project and group bots also have a `_bot` login. */
function gitlabBot(author: Obj | null, login: string | null): boolean {
  return (author !== null && author['bot'] === true) || (login !== null && /(^|_)bot(_|$)|\[bot\]$/i.test(login));
}

/** Reads discussions into threads. */
export class GitlabCollector {
  readonly threads: ImportedThread[] = [];
  readonly skips: Skip[] = [];

  constructor(private readonly projectUrl: string | null) {}

  add(d: Obj, line: number): void {
    const key = idOrNull(d['id']);
    if (key === null) return void this.skips.push({ line, what: null, reason: 'a discussion without a usable "id"' });
    const notes = (d['notes'] as unknown[]).filter(isPlainObject).filter((n) => n['system'] !== true);
    const first = notes[0];
    if (first === undefined) return void this.skips.push({ line, what: key, reason: 'a discussion with no comment (system notes only)' });
    if (first['type'] !== 'DiffNote' || !isPlainObject(first['position']))
      return void this.skips.push({ line, what: key, reason: 'not a line comment (its first note is not a DiffNote with a position)' });
    if (first['noteable_type'] !== undefined && first['noteable_type'] !== 'MergeRequest')
      return void this.skips.push({ line, what: key, reason: `a comment on a ${String(first['noteable_type'])}, not a merge request` });
    const iid = positiveOrNull(first['noteable_iid']);
    if (iid === null) return void this.skips.push({ line, what: key, reason: 'names no merge request ("noteable_iid")' });
    const pos = first['position'];
    const base = this.projectUrl === null ? null : `${this.projectUrl.replace(/\/+$/, '')}/-/merge_requests/${iid}`;
    const comments: ImportedComment[] = [];
    for (const n of notes) {
      const author = isPlainObject(n['author']) ? n['author'] : null;
      const login = author ? stringOrNull(author['username']) : null;
      const id = idOrNull(n['id']);
      const comment = commentFrom({
        id: n['id'],
        createdAt: n['created_at'],
        updatedAt: n['updated_at'],
        body: n['body'],
        author: login,
        bot: gitlabBot(author, login),
        url: base === null || id === null ? null : `${base}#note_${id}`,
      });
      if (comment !== null) comments.push(comment);
      else this.skips.push({ line, what: id, reason: 'a note without "id", "created_at" or "body" was left out of its discussion' });
    }
    if (comments.length === 0) return void this.skips.push({ line, what: key, reason: 'no usable note in the discussion' });
    const resolver = isPlainObject(first['resolved_by'])
      ? stringOrNull(first['resolved_by']['username'])
      : stringOrNull(first['resolved_by']);
    const newPath = stringOrNull(pos['new_path']);
    this.threads.push({
      forge: 'gitlab',
      key: `gitlab:${key}`,
      pull: iid,
      pullUrl: base,
      path: newPath ?? stringOrNull(pos['old_path']),
      line: positiveOrNull(pos['new_line']),
      commit: shaOrNull(pos['head_sha']),
      originalLine: positiveOrNull(pos['old_line']),
      originalCommit: shaOrNull(pos['base_sha']),
      diffHunk: null,
      side: positiveOrNull(pos['new_line']) === null && positiveOrNull(pos['old_line']) !== null ? 'LEFT' : 'RIGHT',
      comments,
      resolved: first['resolvable'] === true && typeof first['resolved'] === 'boolean' ? first['resolved'] : null,
      resolvedBy: resolver,
      resolvedAt: isoSecond(first['resolved_at']),
      exportLine: line,
    });
  }
}
