/** ESLint-like "stylish" output: `path:line:col  severity  message  rule-id`, then a summary line. */
import { countBySeverity, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { Paint } from './paint.js';

function location(d: Diagnostic): string {
  if (d.line <= 0) return d.file;
  return d.column > 0 ? `${d.file}:${d.line}:${d.column}` : `${d.file}:${d.line}`;
}

export function formatStylish(diagnostics: readonly Diagnostic[], paint: Paint): string {
  const sorted = sortDiagnostics(diagnostics);
  const lines: string[] = [];
  for (const d of sorted) {
    const sev = d.severity === 'error' ? paint.red('error') : d.severity === 'warning' ? paint.yellow('warning') : paint.dim('info');
    lines.push(`${location(d)}  ${sev}  ${d.message}  ${paint.dim(d.ruleId)}`);
    for (const n of d.notes ?? []) lines.push(`    ${paint.dim(n)}`);
  }
  const c = countBySeverity(sorted);
  if (c.error + c.warning > 0) {
    const summary = `${c.error + c.warning} problem${c.error + c.warning === 1 ? '' : 's'} (${c.error} error${c.error === 1 ? '' : 's'}, ${c.warning} warning${c.warning === 1 ? '' : 's'})`;
    lines.push('', c.error > 0 ? paint.red(paint.bold(`✖ ${summary}`)) : paint.yellow(paint.bold(`⚠ ${summary}`)));
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
