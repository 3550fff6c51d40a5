/** Rules and messages shared by `validate` and the writer (`add`). Pure. */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { parseDedupKey } from './normalize.js';

/** Warnings when a dedup_key's category or primary work shape disagrees with the entry's fields. */
export function dedupKeyWarnings(
  entry: { dedup_key: string; category: string; applicable_when: readonly string[] },
  file: string,
  line: number,
  prefix = '',
): Diagnostic[] {
  const parts = parseDedupKey(entry.dedup_key);
  if (parts === null) {
    return [
      diagnostic({
        file,
        line,
        severity: 'warning',
        ruleId: 'registry/dedup-key-shape',
        message: `${prefix}dedup_key "${entry.dedup_key}" is not <category>|<pattern-slug>|<primary-applicable-when>`,
      }),
    ];
  }
  const out: Diagnostic[] = [];
  if (parts.category !== entry.category) {
    out.push(
      diagnostic({
        file,
        line,
        severity: 'warning',
        ruleId: 'registry/dedup-key-mismatch',
        message: `${prefix}dedup_key category "${parts.category}" differs from category "${entry.category}"`,
      }),
    );
  }
  const primary = entry.applicable_when[0] ?? '';
  if (parts.primary !== primary) {
    out.push(
      diagnostic({
        file,
        line,
        severity: 'warning',
        ruleId: 'registry/dedup-key-mismatch',
        message: `${prefix}dedup_key work shape "${parts.primary}" differs from the primary applicable_when "${primary}"`,
      }),
    );
  }
  return out;
}

/** One message per line: missing fields grouped, then every other problem naming its field. */
export function schemaMessage(problems: readonly string[]): string {
  const missing: string[] = [];
  const other: string[] = [];
  for (const p of problems) {
    const m = /^missing required field (".*")$/.exec(p);
    if (m) missing.push(m[1]!);
    else other.push(p);
  }
  const parts =
    missing.length === 0
      ? []
      : [missing.length === 1 ? `missing required field ${missing[0]}` : `missing required fields ${missing.join(', ')}`];
  return `not a valid registry entry: ${[...parts, ...other].join('; ')}`;
}

/**
 * The `registry/superseded-by` rule of `findings validate`, for one line: a superseded line must
 * name a replacement that is not itself and that `exists`. Returns the problem, or null. Pure.
 * Shared by the strict validator and the writer, so the writer never writes a line validate rejects.
 */
export function supersededByProblem(
  entry: { id?: unknown; status?: unknown; superseded_by?: unknown },
  exists: (id: string) => boolean,
): string | null {
  if (entry.status !== 'superseded') return null;
  const target = entry.superseded_by;
  if (typeof target !== 'string' || target === '') return 'status "superseded" requires superseded_by naming the replacement id';
  if (target === entry.id) return `superseded_by "${target}" names the entry itself`;
  if (!exists(target)) return `superseded_by "${target}" names no registry entry`;
  return null;
}
