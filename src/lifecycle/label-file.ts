/**
 * The text form of labels, read by `findings constraint label <id> --from <file|->` and written by
 * `findings constraint sample` (docs/lifecycle.md, "Label files"). One hit per line:
 *
 *   <hit-id> tp|fp [note…]     a verdict (true_positive / false_positive are accepted too)
 *   <hit-id> [?]               not labelled yet: skipped
 *   # …                        a comment (sample writes each hit's text here); blank lines too
 *
 * Hit ids contain paths, and paths may contain spaces, so the id is the longest known id the line
 * starts with; failing that, the text up to the first `:<line>` followed by a space. Pure.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import type { HitLabel, Verdict } from './measurement.js';

export interface LabelLine extends Verdict {
  readonly id: string;
  /** 1-based line in the input. */
  readonly line: number;
}

export interface LabelFile {
  readonly verdicts: LabelLine[];
  /** Ids listed without a verdict (`?` or nothing). */
  readonly skipped: string[];
  /** Lines that are neither: bad input. */
  readonly problems: Diagnostic[];
}

const VERDICTS: Readonly<Record<string, HitLabel>> = {
  tp: 'true_positive',
  fp: 'false_positive',
  true_positive: 'true_positive',
  false_positive: 'false_positive',
};

/** Splits `<id> <rest>` using the known ids first (a path may contain spaces), then the id's own shape. */
function splitId(text: string, known: ReadonlySet<string>): { id: string; rest: string } | null {
  let best: string | null = null;
  for (let i = text.indexOf(' '); i !== -1; i = text.indexOf(' ', i + 1)) {
    if (known.has(text.slice(0, i))) best = text.slice(0, i);
  }
  if (best === null && known.has(text)) best = text;
  if (best !== null) return { id: best, rest: text.slice(best.length).trim() };
  const m = /^(\S+?:.*?:\d+)(?:\s+(.*))?$/.exec(text);
  return m ? { id: m[1]!, rest: (m[2] ?? '').trim() } : null;
}

/** Parses a label file against the ids a measurement knows. */
export function parseLabelFile(text: string, file: string, known: ReadonlySet<string>): LabelFile {
  const verdicts: LabelLine[] = [];
  const skipped: string[] = [];
  const problems: Diagnostic[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const split = splitId(line, known);
    if (split === null) {
      problems.push(
        diagnostic({
          file,
          line: i + 1,
          ruleId: 'lifecycle/bad-label-line',
          message: `"${line}" is not "<hit-id> tp|fp [note…]" (hit ids look like <commit8>:<path>:<line>)`,
        }),
      );
      return;
    }
    const [word = '', ...note] = split.rest.split(/\s+/).filter((w) => w !== '');
    if (word === '' || word === '?') {
      skipped.push(split.id);
      return;
    }
    const label = VERDICTS[word.toLowerCase()];
    if (label === undefined) {
      problems.push(
        diagnostic({
          file,
          line: i + 1,
          ruleId: 'lifecycle/bad-label-line',
          message: `"${word}" after ${split.id} is not a verdict: write tp or fp (or ? to skip)`,
        }),
      );
      return;
    }
    verdicts.push({ id: split.id, line: i + 1, label, ...(note.length > 0 ? { note: note.join(' ') } : {}) });
  });
  return { verdicts, skipped, problems };
}

/** One hit as a label-file entry: a comment with where and what, then `<id> ?` for a person to fill in. */
export function labelFileEntry(hit: { id: string; commit: string; path: string; line: number; seen: number }, text: string | null): string {
  const shown = text === null ? '(line not readable)' : text.trim().slice(0, 160);
  return `# ${hit.path}:${hit.line} @ ${hit.commit.slice(0, 12)}${hit.seen > 0 ? ` (still there ${hit.seen} commit(s) later)` : ''}: ${shown}\n${hit.id} ?\n`;
}
