/**
 * One review thread → one structured finding (docs/import.md, "From a comment to a finding"). Pure:
 * the thread, its Markdown read, and the commented code line (from the diff hunk, or from git at
 * the commented commit, looked up by the caller) in; the finding, its origin and what the
 * classifier reads out — or the reason the thread is left out.
 */
import { compareStrings } from '../diagnostics.js';
import { hashId } from '../review/ids.js';
import { controlCharProblem, filedFileProblem, findingFileProblem, isPlaceholder, LIMITS } from '../review/finding-rules.js';
import { cutWithMarker } from '../review/producer.js';
import type { FindingBody, ImportSource } from '../review/types.js';
import { normalizeRelative } from '../paths.js';
import { classTag, readLabel, withoutClassTags } from './conventional.js';
import type { CommentText } from './markdown.js';
import type { ImportedThread, Skip } from './thread.js';

/** A thread mapped to a finding, before classification. */
export interface MappedThread {
  readonly task: string;
  /** The pull or merge request's web URL, or a `forge:…` name when the export gives none. */
  readonly taskSource: string;
  readonly findingId: string;
  readonly body: FindingBody;
  readonly source: ImportSource;
  readonly resolved: boolean | null;
  readonly resolvedBy: string | null;
  readonly resolvedAt: string | null;
  /** Suggested replacement lines (for finding the commit that applied them). */
  readonly suggestion: string | null;
  /** The class from an explicit tag or decoration, else null (the classifier decides). */
  readonly explicitClass: string | null;
  /** What the classifier reads: the reviewer's words and the commented code. */
  readonly text: string;
  readonly code: string;
}

export interface MapOptions {
  readonly includeBots: boolean;
  /** ISO 8601: threads started before it are left out. */
  readonly since: string | null;
}

/** The finding id of an imported thread: the first 32 hex of sha256 of `{"import":"<thread key>"}` (docs/import.md, "Ids"). */
export function importedFindingId(threadKey: string): string {
  return hashId({ import: threadKey });
}

/** The task a thread belongs to: `PR-<number>` (GitHub) or `MR-<iid>` (GitLab). */
export function taskOf(thread: Pick<ImportedThread, 'forge' | 'pull'>): string {
  return `${thread.forge === 'github' ? 'PR' : 'MR'}-${thread.pull}`;
}

/** Control characters other than line feeds and tabs become spaces: a finding is text to read. */
export function clean(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, ' ');
}

/** The commented line from GitHub's diff hunk (its last line), without the diff's first column. */
export function hunkLine(hunk: string | null): string | null {
  if (hunk === null) return null;
  const lines = hunk.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const last = lines[lines.length - 1];
  if (last === undefined || last.startsWith('@@')) return null;
  const code = last.slice(1).trim();
  return code === '' ? null : code;
}

/** Words that never make a finding when they are all a first comment says. */
const NOT_A_FINDING = /^(lgtm|ship it|thanks?( you)?|\+1|-1|done|fixed|nice|great|ok(ay)?|agreed?|same|ditto|ack)[.!]*$/i;

/**
 * Maps one thread. `read` is the Markdown reader; `codeLine` is the commented code when the caller
 * found it in git (the diff hunk is read here). Returns the finding or why it is left out.
 */
export function mapThread(
  thread: ImportedThread,
  read: (body: string) => CommentText,
  codeLine: string | null,
  options: MapOptions,
): MappedThread | Skip {
  const skip = (reason: string): Skip => ({ line: thread.exportLine, what: thread.key, reason });
  const comments = options.includeBots ? thread.comments : thread.comments.filter((c) => !c.bot);
  const root = thread.comments[0]!;
  if (root.bot && !options.includeBots) return skip(`written by a bot (${root.author ?? 'unknown'}); --include-bots keeps it`);
  if (options.since !== null && root.createdAt < options.since) return skip(`started ${root.createdAt}, before --since`);
  if (thread.path === null) return skip('names no file ("path")');
  const pathProblem = controlCharProblem(thread.path) ?? findingFileProblem(thread.path) ?? filedFileProblem(thread.path);
  if (pathProblem !== null) return skip(`its path ${JSON.stringify(thread.path.slice(0, 200))} ${pathProblem}`);

  const text = read(clean(root.body));
  const tag = classTag(root.body);
  const decorated = readLabel(withoutClassTags(clean(text.prose)));
  if (decorated.severity === 'none') return skip(`a "${decorated.label}:" comment, not a defect`);
  const suggestion = text.suggestions[0] ?? null;
  const asked = decorated.subject !== '' ? decorated.subject : suggestion !== null ? `suggested change: ${clean(suggestion).trim()}` : '';
  // Placeholders and approvals are a few words: a longer text is neither (and is not worth normalising to see).
  const short = asked.length <= 200;
  if (asked.trim() === '' || (short && (isPlaceholder(asked) || NOT_A_FINDING.test(asked.trim()))))
    return skip('its first comment asks for nothing (empty, a placeholder or an approval)');
  const code = clean(codeLine ?? hunkLine(thread.diffHunk) ?? '').trim();
  const line = thread.line ?? thread.originalLine;
  const file = normalizeRelative(thread.path);
  const actual = code !== '' ? code : `the commented code (${file}${line !== null ? `:${line}` : ''}) is not in the export or the history`;
  const transcript = comments
    .map((c) => `@${c.author ?? 'unknown'} (${c.createdAt}): ${clean(c.body).trim()}`)
    .join('\n\n')
    .trim();
  // ISO 8601 UTC strings of one length: code-unit order is time order.
  const updatedAt = [root.updatedAt, ...comments.map((c) => c.updatedAt)].sort(compareStrings).at(-1)!;
  const source: ImportSource = {
    forge: thread.forge,
    thread: thread.key,
    url: root.url === null ? null : clean(root.url).slice(0, 2000),
    pull: thread.pull,
    author: root.author === null ? null : clean(root.author).slice(0, 300),
    created_at: root.createdAt,
    updated_at: updatedAt,
    comments: comments.slice(0, 1000).map((c) => c.id),
    commit: thread.commit,
    line: thread.line,
    original_commit: thread.originalCommit,
    original_line: thread.originalLine,
  };
  const body: FindingBody = {
    file,
    line,
    severity: decorated.severity,
    criterion: null,
    expected: cutKnowing(asked.trim(), LIMITS.expected, root.omitted),
    actual: cutWithMarker(actual, LIMITS.actual),
    fix: null,
    evidence:
      transcript === ''
        ? null
        : cutKnowing(
            transcript,
            LIMITS.evidence,
            comments.reduce((n, c) => n + c.omitted, 0),
          ),
    class: tag ?? decorated.decorationClass,
  };
  return {
    task: taskOf(thread),
    taskSource: thread.pullUrl ?? fallbackSource(thread),
    findingId: importedFindingId(thread.key),
    body,
    source,
    resolved: thread.resolved,
    resolvedBy: thread.resolvedBy,
    resolvedAt: thread.resolvedAt,
    suggestion,
    explicitClass: body.class,
    text: `${decorated.subject} ${text.code.join(' ')}`,
    code,
  };
}

/**
 * `text` cut to `limit` code points ending in `…[N chars omitted]`, where N also counts the
 * `dropped` code points the reader never kept (a 2 MB comment says so). cutWithMarker when none were.
 */
export function cutKnowing(text: string, limit: number, dropped: number): string {
  // Within the limit in UTF-16 units is within it in code points: nothing to count.
  if (dropped === 0) return text.length <= limit ? text : cutWithMarker(text, limit);
  const points = [...text];
  let keep = Math.min(points.length, limit);
  // The marker's length depends on N's digits and N on what is kept: shrink until it fits.
  for (;;) {
    const marker = `…[${points.length - keep + dropped} chars omitted]`;
    const fits = Math.min(points.length, limit - [...marker].length);
    if (fits >= keep) return points.slice(0, keep).join('') + marker;
    keep = fits;
  }
}

/** A task's source when the export names no web URL: `github:<owner>/<repo>/pull/<n>`, `gitlab:merge_requests/<iid>`. */
function fallbackSource(thread: ImportedThread): string {
  if (thread.forge === 'gitlab') return `gitlab:merge_requests/${thread.pull}`;
  return `github:${thread.key.slice('github:'.length, thread.key.lastIndexOf('#'))}/pull/${thread.pull}`;
}

/** Whether a mapping result is a skip. */
export const isSkip = (v: MappedThread | Skip): v is Skip => 'reason' in v;
