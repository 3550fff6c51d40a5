/**
 * `--format markdown` for `check` and `compile --check`: a report for `$GITHUB_STEP_SUMMARY` and
 * pull-request comments (docs/hooks.md, "Output formats"): a summary line, a table of hits by
 * constraint (status, count, first location), and the constraints the range adds or changes.
 * GitHub renders GitHub Flavored Markdown, so table cells escape `|` and fold newlines. Pure.
 */
import { compareStrings, countBySeverity, sortDiagnostics, type Diagnostic, type Severity } from '../diagnostics.js';
import type { ConstraintEntry } from '../types.js';
import { sarifRuleId } from './sarif.js';

/** A constraint the range adds, changes or removes. */
export interface ConstraintChange {
  readonly id: string;
  readonly kind: 'new' | 'changed' | 'removed';
  readonly title: string;
  readonly status: string;
  /** What changed, e.g. `status shadow → active`, `detector`. */
  readonly detail: string;
}

export interface MarkdownReport {
  /** The command, e.g. `findings check`. */
  readonly title: string;
  /** The constraints applied (statuses for the table). */
  readonly constraints: readonly ConstraintEntry[];
  /** Constraint changes of the range; null when the command has no range (the section is left out). */
  readonly changes: readonly ConstraintChange[] | null;
  /** Words after the counts in the summary line, e.g. `12 files, 4 constraints`. */
  readonly scope?: string;
  /** Extra sections (already Markdown), e.g. compiled files that are not current. */
  readonly sections?: readonly string[];
  /** Why the command fails although no diagnostic is an error (e.g. compiled files not current). */
  readonly failure?: string;
}

/** Rows kept in a table: a PR comment holds at most 65,536 characters. */
export const MARKDOWN_ROW_CAP = 100;

/** Escapes a table cell. Pure. */
export function cell(s: string): string {
  return s.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** A code span that survives backticks in its text. Pure. */
export function code(s: string): string {
  const t = cell(s);
  return t.includes('`') ? `\`\` ${t} \`\`` : `\`${t}\``;
}

const KEYS: readonly (keyof ConstraintEntry)[] = ['title', 'checklist_item', 'applies_to', 'detector', 'enforcement_mode', 'tier'];

/** New, changed and removed constraints between two versions of the index, by id. Pure. */
export function constraintChanges(before: readonly ConstraintEntry[], after: readonly ConstraintEntry[]): ConstraintChange[] {
  const old = new Map(before.map((c) => [c.id, c]));
  const now = new Map(after.map((c) => [c.id, c]));
  const out: ConstraintChange[] = [];
  for (const c of after) {
    const b = old.get(c.id);
    if (!b) {
      out.push({ id: c.id, kind: 'new', title: c.title, status: c.status, detail: 'new' });
      continue;
    }
    const parts: string[] = [];
    if (b.status !== c.status) parts.push(`status ${b.status} → ${c.status}`);
    for (const k of KEYS)
      if (k !== 'enforcement_mode' && JSON.stringify(b[k]) !== JSON.stringify(c[k])) parts.push(k === 'applies_to' ? 'applies_to' : k);
    if (parts.length > 0) out.push({ id: c.id, kind: 'changed', title: c.title, status: c.status, detail: parts.join(', ') });
  }
  for (const b of before)
    if (!now.has(b.id)) out.push({ id: b.id, kind: 'removed', title: b.title, status: b.status, detail: 'removed from the index' });
  return out.sort((a, b) => compareStrings(a.id, b.id));
}

function location(d: Diagnostic): string {
  if (d.line <= 0) return d.file;
  return d.column > 0 ? `${d.file}:${d.line}:${d.column}` : `${d.file}:${d.line}`;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function statusOf(c: ConstraintEntry | undefined, worst: Severity): string {
  if (!c) return worst;
  return c.status === 'active' || c.enforcement_mode === 'block' ? `${c.status} (blocks)` : `${c.status} (warns)`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function hitsTable(diagnostics: readonly Diagnostic[], constraints: readonly ConstraintEntry[]): string[] {
  const byId = new Map(constraints.map((c) => [c.id, c]));
  const groups = new Map<string, Diagnostic[]>();
  for (const d of sortDiagnostics(diagnostics)) {
    const id = sarifRuleId(d.ruleId);
    groups.set(id, [...(groups.get(id) ?? []), d]);
  }
  const rows = [...groups].map(([id, list]) => {
    const worst = list.reduce<Severity>((w, d) => (RANK[d.severity] < RANK[w] ? d.severity : w), 'info');
    return { id, list, worst, c: byId.get(id) };
  });
  // Blocking rules first, then the most hits, then by id.
  rows.sort((a, b) => RANK[a.worst] - RANK[b.worst] || b.list.length - a.list.length || compareStrings(a.id, b.id));
  const lines = ['| constraint or rule | status | hits | first location |', '| --- | --- | ---: | --- |'];
  for (const r of rows.slice(0, MARKDOWN_ROW_CAP)) {
    const name = r.c ? `${code(r.id)} ${cell(r.c.title)}` : code(r.id);
    lines.push(`| ${name} | ${statusOf(r.c, r.worst)} | ${r.list.length} | ${code(location(r.list[0]!))} |`);
  }
  if (rows.length > MARKDOWN_ROW_CAP)
    lines.push('', `…and ${rows.length - MARKDOWN_ROW_CAP} more rules; run the same command with \`--format stylish\` to see all.`);
  return lines;
}

function changesTable(changes: readonly ConstraintChange[]): string[] {
  if (changes.length === 0) return ['No constraint is new or changed.'];
  const lines = ['| constraint | change | status |', '| --- | --- | --- |'];
  for (const c of changes.slice(0, MARKDOWN_ROW_CAP)) lines.push(`| ${code(c.id)} ${cell(c.title)} | ${cell(c.detail)} | ${c.status} |`);
  if (changes.length > MARKDOWN_ROW_CAP) lines.push('', `…and ${changes.length - MARKDOWN_ROW_CAP} more.`);
  return lines;
}

export function formatMarkdown(diagnostics: readonly Diagnostic[], report: MarkdownReport): string {
  const counts = countBySeverity(diagnostics);
  const scope = report.scope ? ` (${report.scope})` : '';
  const verdict =
    counts.error > 0
      ? `❌ ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}`
      : report.failure !== undefined
        ? `❌ ${report.failure}`
        : counts.warning > 0
          ? `⚠️ ${plural(counts.warning, 'warning')}, no errors`
          : '✅ no problems';
  const out = [`### ${report.title}: ${verdict}${scope}`, ''];
  if (diagnostics.length > 0) out.push(...hitsTable(diagnostics, report.constraints), '');
  for (const s of report.sections ?? []) out.push(s.trimEnd(), '');
  if (report.changes !== null) out.push('#### New, changed or removed constraints', '', ...changesTable(report.changes), '');
  if (diagnostics.some((d) => d.ruleId.startsWith('constraint/')))
    out.push('Run `findings explain <constraint>` to see the review that taught a constraint.', '');
  return `${out.join('\n').trimEnd()}\n`;
}
