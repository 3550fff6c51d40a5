/** ESLint-like "stylish" output: `path:line:col  severity  message  rule-id`, then a summary line. */
import { countBySeverity, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { Paint } from './paint.js';

function location(d: Diagnostic): string {
  if (d.line <= 0) return d.file;
  return d.column > 0 ? `${d.file}:${d.line}:${d.column}` : `${d.file}:${d.line}`;
}

/**
 * Suppressed hits (inline markers, baselines) are only counted, unless `listSuppressed`
 * (`check --report-suppressions`) lists them, each with its reason.
 */
export function formatStylish(diagnostics: readonly Diagnostic[], paint: Paint, listSuppressed = false): string {
  const all = sortDiagnostics(diagnostics);
  const sorted = all.filter((d) => d.suppressed === undefined);
  const suppressed = all.filter((d) => d.suppressed !== undefined);
  const lines: string[] = [];
  for (const d of sorted) {
    const sev = d.severity === 'error' ? paint.red('error') : d.severity === 'warning' ? paint.yellow('warning') : paint.dim('info');
    lines.push(`${location(d)}  ${sev}  ${d.message}  ${paint.dim(d.ruleId)}`);
    for (const n of d.notes ?? []) lines.push(`    ${paint.dim(n)}`);
  }
  const c = countBySeverity(sorted);
  if (c.error + c.warning > 0) {
    const summary =
      `${c.error + c.warning} problem${c.error + c.warning === 1 ? '' : 's'} ` +
      `(${c.error} error${c.error === 1 ? '' : 's'}, ${c.warning} warning${c.warning === 1 ? '' : 's'})`;
    lines.push('', c.error > 0 ? paint.red(paint.bold(`✖ ${summary}`)) : paint.yellow(paint.bold(`⚠ ${summary}`)));
  }
  if (suppressed.length > 0) {
    const inSource = suppressed.filter((d) => d.suppressed!.kind === 'inSource').length;
    const baselined = suppressed.length - inSource;
    const parts = [...(inSource > 0 ? [`${inSource} suppressed inline`] : []), ...(baselined > 0 ? [`${baselined} in a baseline`] : [])];
    if (listSuppressed) {
      if (lines.length > 0) lines.push('');
      for (const d of suppressed)
        lines.push(
          `${location(d)}  ${paint.dim(d.suppressed!.kind === 'inSource' ? 'suppressed' : 'baselined')}  ${d.message}  ${paint.dim(d.ruleId)}`,
          `    ${paint.dim(`reason: ${d.suppressed!.reason}`)}`,
        );
    }
    lines.push(
      paint.dim(
        `${suppressed.length} hit${suppressed.length === 1 ? '' : 's'} not counted ` +
          `(${parts.join(', ')})${listSuppressed ? '' : '; list them with `findings check --all --report-suppressions`'}`,
      ),
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
