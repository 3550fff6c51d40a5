/**
 * Comments prevented (docs/import.md, "Comments prevented"): for one constraint, the imported
 * review comments it would have caught at commit time — a distinct hit of `constraint measure` on
 * the comment's file, at the commented commit (the commit the comment is anchored on, or the one it
 * was first made on), within PREVENTED_WINDOW lines of the commented line. Each comment counts
 * once. `prevented` is pure; `commentAnchors` reads the ledgers.
 */
import { compareStrings } from '../diagnostics.js';
import { readAllLedgers } from '../review/ledger.js';
import type { RepoFiles } from '../repo-files.js';

/** Lines above or below the commented line a hit may be on. */
export const PREVENTED_WINDOW = 3;

/** One imported comment and where it was anchored. */
export interface CommentAnchor {
  readonly findingId: string;
  readonly task: string;
  readonly url: string | null;
  readonly path: string;
  /** Commit and line pairs the comment was made at (deduplicated). */
  readonly at: readonly { readonly commit: string; readonly line: number }[];
}

/** The hit fields this needs (src/lifecycle/measurement.ts MeasuredHit has them). */
export interface AnchorHit {
  readonly id: string;
  readonly commit: string;
  readonly path: string;
  readonly line: number;
}

/** The `comments_prevented` field of a measurement (schemas/measurement.schema.json). */
export interface CommentsPrevented {
  readonly count: number;
  readonly comments: readonly { readonly finding_id: string; readonly task: string; readonly url: string | null; readonly hit: string }[];
}

/** The comments `hits` would have caught, sorted by task and finding id; each names the nearest hit (then the lowest id). Pure. */
export function prevented(hits: readonly AnchorHit[], comments: readonly CommentAnchor[], window = PREVENTED_WINDOW): CommentsPrevented {
  const byPlace = new Map<string, AnchorHit[]>();
  for (const h of hits) {
    const key = `${h.commit}\0${h.path}`;
    byPlace.set(key, [...(byPlace.get(key) ?? []), h]);
  }
  const out: { finding_id: string; task: string; url: string | null; hit: string }[] = [];
  for (const c of comments) {
    let best: { hit: AnchorHit; distance: number } | null = null;
    for (const a of c.at) {
      for (const h of byPlace.get(`${a.commit}\0${c.path}`) ?? []) {
        const distance = Math.abs(h.line - a.line);
        if (distance > window) continue;
        if (best === null || distance < best.distance || (distance === best.distance && compareStrings(h.id, best.hit.id) < 0))
          best = { hit: h, distance };
      }
    }
    if (best !== null) out.push({ finding_id: c.findingId, task: c.task, url: c.url, hit: best.hit.id });
  }
  out.sort((a, b) => compareStrings(a.task, b.task) || compareStrings(a.finding_id, b.finding_id));
  return { count: out.length, comments: out };
}

/** Every imported comment of the review ledgers with its anchors (none: the repository imported nothing). */
export async function commentAnchors(files: RepoFiles): Promise<CommentAnchor[]> {
  const { findings } = await readAllLedgers(files);
  const out: CommentAnchor[] = [];
  for (const f of findings) {
    if (f.source === null || f.file === null) continue;
    const s = f.source;
    const at = [
      { commit: s.commit, line: s.line },
      { commit: s.original_commit, line: s.original_line },
    ].filter((a): a is { commit: string; line: number } => a.commit !== null && a.line !== null);
    const unique = at.filter((a, i) => at.findIndex((b) => b.commit === a.commit && b.line === a.line) === i);
    if (unique.length > 0) out.push({ findingId: f.id, task: f.task, url: s.url, path: f.file, at: unique });
  }
  return out;
}

/** One row of the Markdown section: a constraint and the comments it would have prevented. */
export interface PreventedRow {
  readonly id: string;
  readonly title: string;
  readonly prevented: CommentsPrevented;
}

/** Links listed per constraint in the Markdown section (a PR comment holds 65,536 characters). */
const LINKS_SHOWN = 5;

/**
 * The `check --format markdown` section (docs/import.md): per constraint with a measurement that
 * counted imported comments, how many it would have prevented and the first links. Null when no
 * measurement counted any (the section is left out). Pure.
 */
export function preventedMarkdown(rows: readonly PreventedRow[]): string | null {
  if (rows.length === 0) return null;
  const cell = (s: string): string => s.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
  const lines = [
    '#### Review comments these constraints would have prevented',
    '',
    '| constraint | comments prevented | comments |',
    '| --- | ---: | --- |',
  ];
  const sorted = [...rows].sort((a, b) => b.prevented.count - a.prevented.count || compareStrings(a.id, b.id));
  for (const r of sorted) {
    const links = r.prevented.comments
      .slice(0, LINKS_SHOWN)
      .map((c) => (c.url !== null && /^https?:\/\//.test(c.url) ? `[${c.task}](${c.url})` : c.task));
    const more = r.prevented.count > LINKS_SHOWN ? ` …and ${r.prevented.count - LINKS_SHOWN} more` : '';
    lines.push(`| \`${cell(r.id)}\` ${cell(r.title)} | ${r.prevented.count} | ${links.join(', ')}${more} |`);
  }
  return lines.join('\n');
}
