/**
 * GitHub workflow commands (docs/hooks.md): `::error file=…,line=…,col=…,title=…::message`.
 * Escaping follows GitHub's runner: data escapes `%`, CR and LF; properties also `:` and `,`.
 * GitHub shows only a limited number of annotations, so each severity is capped and a final
 * `::notice::` says how many were left out.
 */
import { sortDiagnostics, type Diagnostic } from '../diagnostics.js';

/** Annotations kept per severity. */
export const ANNOTATION_CAP = 50;

const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

/** Escapes a workflow command's message. Pure. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command property value. Pure. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  const lines: string[] = [];
  const kept = { error: 0, warning: 0, info: 0 };
  let omitted = 0;
  for (const d of sortDiagnostics(diagnostics)) {
    if (kept[d.severity] >= ANNOTATION_CAP) {
      omitted += 1;
      continue;
    }
    kept[d.severity] += 1;
    const props = [`file=${escapeProperty(d.file)}`];
    if (d.line > 0) props.push(`line=${d.line}`);
    if (d.line > 0 && d.column > 0) props.push(`col=${d.column}`);
    props.push(`title=${escapeProperty(d.ruleId)}`);
    const message = [d.message, ...(d.notes ?? [])].join('\n');
    lines.push(`::${COMMAND[d.severity]} ${props.join(',')}::${escapeData(message)}`);
  }
  if (omitted > 0)
    lines.push(
      `::notice::${omitted} more annotation${omitted === 1 ? '' : 's'} omitted (at ` +
        `most ${ANNOTATION_CAP} per severity); run the same command with --format stylish to see all`,
    );
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
