/**
 * What a comment says about itself (docs/import.md, "Severity" and "Classes"): a Conventional
 * Comments label and its decorations (`issue (blocking, security): …`, conventionalcomments.org),
 * and an explicit class tag (`[class: n-plus-one]`). Pure.
 */
import type { Severity } from '../review/types.js';

/** Conventional Comments labels (and the common `nit`) to severities; `praise` files nothing. */
export const LABEL_SEVERITY: Readonly<Record<string, Severity | 'none'>> = {
  blocking: 'blocker',
  issue: 'major',
  todo: 'minor',
  chore: 'minor',
  suggestion: 'minor',
  question: 'nit',
  thought: 'nit',
  note: 'nit',
  nitpick: 'nit',
  nit: 'nit',
  typo: 'nit',
  polish: 'nit',
  quibble: 'nit',
  praise: 'none',
};

/** A comment with no label (or a label not listed) is a `minor` finding. */
export const DEFAULT_SEVERITY: Severity = 'minor';

/** Decorations that speak about blocking, not about the defect's class. */
const BLOCKING_DECORATIONS = new Set(['blocking', 'non-blocking', 'nonblocking', 'if-minor']);

export interface Decorated {
  /** The label as written, lowercased (null: none). */
  readonly label: string | null;
  readonly severity: Severity | 'none';
  /** The first decoration that is not about blocking, as a class slug (null: none). */
  readonly decorationClass: string | null;
  /** The prose without its label and decorations. */
  readonly subject: string;
}

const LABEL = /^\s*([A-Za-z][A-Za-z-]{1,20})\s*(?:\(([^()\n]{1,200})\))?\s*:\s*/;

/** A lowercase class slug (`a-z`, `0-9`, `-`, at most 64), or null when nothing is left. */
export function classSlug(raw: string): string | null {
  const s = raw
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return /^[a-z0-9][a-z0-9-]{0,63}$/.test(s) ? s : null;
}

/** Reads the label and decorations at the start of a comment's prose. */
export function readLabel(prose: string): Decorated {
  const m = LABEL.exec(prose);
  const label = m?.[1]?.toLowerCase();
  if (!m || label === undefined || !(label in LABEL_SEVERITY))
    return { label: null, severity: DEFAULT_SEVERITY, decorationClass: null, subject: prose.trim() };
  const decorations = (m[2] ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter((d) => d !== '');
  let severity = LABEL_SEVERITY[label]!;
  if (severity !== 'none') {
    if (decorations.includes('blocking')) severity = 'blocker';
    else if (decorations.some((d) => d === 'non-blocking' || d === 'nonblocking' || d === 'if-minor'))
      severity = severity === 'blocker' || severity === 'major' ? 'minor' : severity;
  }
  const other = decorations.find((d) => !BLOCKING_DECORATIONS.has(d));
  return { label, severity, decorationClass: other === undefined ? null : classSlug(other), subject: prose.slice(m[0].length).trim() };
}

const TAG = /\[class:\s*([^\]\n]{1,80})\]/i;

/** The explicit `[class: x]` tag of a comment (as a slug), or null. */
export function classTag(text: string): string | null {
  const m = TAG.exec(text);
  return m ? classSlug(m[1]!) : null;
}

/** The text without its `[class: x]` tags. */
export function withoutClassTags(text: string): string {
  return text
    .replace(new RegExp(TAG.source, 'gi'), ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
