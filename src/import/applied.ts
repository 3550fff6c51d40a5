/**
 * Which commit applied a reviewer's ```suggestion``` (docs/import.md, "Resolved threads and applied
 * suggestions"): the first commit after the commented one, in HEAD's history, that changed the
 * commented file so that it holds the suggested lines where its first parent did not. Content is
 * compared, never commit messages ("Apply suggestions from code review" can be reworded). One
 * `git log --raw` walk, and the candidate blobs read with one `cat-file --batch`; skipped when no
 * thread has a suggestion.
 */
import { readObjects, resolveCommit } from '../git/core.js';
import { streamHistory } from '../git/history.js';

/** Later changes of the file looked at per suggestion: a suggestion is applied soon after it is made, or not at all. */
const MAX_CANDIDATES = 20;

export interface SuggestionAnchor {
  readonly key: string;
  readonly commit: string | null;
  readonly path: string;
  readonly suggestion: string;
}

/** The suggestion's non-empty lines, trimmed (indentation is the author's, not the reviewer's). */
function suggestedLines(s: string): string[] {
  return s
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** Whether `text` holds `lines` as consecutive lines (trimmed). Pure. */
export function holdsLines(text: string, lines: readonly string[]): boolean {
  if (lines.length === 0) return false;
  const all = text.split(/\r?\n/).map((l) => l.trim());
  for (let i = 0; i + lines.length <= all.length; i++) {
    let ok = true;
    for (let j = 0; j < lines.length && ok; j++) ok = all[i + j] === lines[j];
    if (ok) return true;
  }
  return false;
}

/** The applying commit of each anchor that has one, by key. */
export async function appliedCommits(root: string, anchors: readonly SuggestionAnchor[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const usable = anchors.filter((a) => a.commit !== null && suggestedLines(a.suggestion).length > 0);
  if (usable.length === 0) return out;
  const head = await resolveCommit(root, 'HEAD');
  if (head === null) return out;
  const byCommit = new Map<string, SuggestionAnchor[]>();
  for (const a of usable) byCommit.set(a.commit!, [...(byCommit.get(a.commit!) ?? []), a]);
  // Anchors whose commented commit has been walked, by path: later changes to the path are candidates.
  const armed = new Map<string, SuggestionAnchor[]>();
  const seen = new Map<string, number>();
  const candidates: { anchor: SuggestionAnchor; commit: string; before: string; after: string }[] = [];
  for await (const c of streamHistory(root, head)) {
    for (const ch of c.changes) {
      for (const a of armed.get(ch.path) ?? []) {
        if (ch.status === 'D' || (seen.get(a.key) ?? 0) >= MAX_CANDIDATES) continue;
        seen.set(a.key, (seen.get(a.key) ?? 0) + 1);
        candidates.push({ anchor: a, commit: c.sha, before: ch.srcSha, after: ch.dstSha });
      }
    }
    for (const a of byCommit.get(c.sha) ?? []) armed.set(a.path, [...(armed.get(a.path) ?? []), a]);
  }
  if (candidates.length === 0) return out;
  const blobs = await readObjects(
    root,
    candidates.flatMap((k) => [k.before, k.after]).filter((s) => !/^0+$/.test(s)),
  );
  for (const k of candidates) {
    if (out.has(k.anchor.key)) continue;
    const lines = suggestedLines(k.anchor.suggestion);
    const after = blobs.get(k.after);
    const before = /^0+$/.test(k.before) ? null : blobs.get(k.before);
    if (after == null || !holdsLines(after.toString('utf8'), lines)) continue;
    if (before != null && holdsLines(before.toString('utf8'), lines)) continue;
    out.set(k.anchor.key, k.commit);
  }
  return out;
}
