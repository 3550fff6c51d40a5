/**
 * Inline suppressions (docs/hooks.md, "Inline suppressions"): a comment containing
 * `findings-ignore <constraint-id>: <reason>` on a hit's line or the line before it suppresses
 * that hit. The marker is found as plain text, so any comment syntax works. A marker without a
 * reason suppresses nothing and is itself a `constraint/suppression-without-reason` diagnostic
 * at the hit's severity (it blocks for an active constraint, warns for a shadow). Pure.
 */
import { diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { isGateExempt } from './gate.js';

export const SUPPRESSION_WITHOUT_REASON = 'constraint/suppression-without-reason';

/** One marker: its 1-based line, the constraint id it names, and its reason (null when missing). */
export interface SuppressionMarker {
  readonly line: number;
  readonly id: string;
  readonly reason: string | null;
}

const MARKER = /findings-ignore[ \t]+([A-Za-z0-9][A-Za-z0-9._-]*)([ \t]*:(.*))?/g;
/** Comment closers that trail a reason on the same line (`*\/`, `-->`, `--}}`, `%>`). */
const TRAILING_CLOSER = /\s*(?:\*\/|-->|--\}\}|%>|#\})\s*$/;

/** The markers of a text, in line order. Pure. */
export function findMarkers(text: string): SuppressionMarker[] {
  if (!text.includes('findings-ignore')) return [];
  const out: SuppressionMarker[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (!line.includes('findings-ignore')) continue;
    for (const m of line.matchAll(MARKER)) {
      const reason = m[2] === undefined ? null : m[3]!.replace(/\r$/, '').replace(TRAILING_CLOSER, '').trim();
      out.push({ line: i + 1, id: m[1]!, reason: reason === '' ? null : reason });
    }
  }
  return out;
}

/**
 * The id a marker and a constraint share: constraint ids were `c-<finding-id>` and become
 * `<finding-id>`, so a marker naming either form matches both. Pure.
 */
export function sameConstraint(markerId: string, constraintId: string): boolean {
  const bare = (id: string): string => (id.startsWith('c-') ? id.slice(2) : id);
  return markerId === constraintId || bare(markerId) === bare(constraintId);
}

/** The constraint id of a gate hit diagnostic, or null for anything else. Pure. */
export function hitConstraintId(d: Diagnostic): string | null {
  if (!d.ruleId.startsWith('constraint/') || d.ruleId === SUPPRESSION_WITHOUT_REASON || d.line <= 0 || isGateExempt(d.file)) return null;
  return d.ruleId.slice('constraint/'.length);
}

/**
 * Marks the hits a marker with a reason suppresses (`suppressed: {kind: 'inSource', reason}`)
 * and adds one `suppression-without-reason` diagnostic per reason-less marker next to a hit.
 * `texts` maps a path to the text the hit was found in. Pure and deterministic.
 */
export function applySuppressions(diagnostics: readonly Diagnostic[], texts: ReadonlyMap<string, string>): Diagnostic[] {
  const markers = new Map<string, SuppressionMarker[]>();
  const markersOf = (file: string): SuppressionMarker[] => {
    let found = markers.get(file);
    if (!found) markers.set(file, (found = findMarkers(texts.get(file) ?? '')));
    return found;
  };
  const out: Diagnostic[] = [];
  const reasonless = new Map<string, Diagnostic>();
  for (const d of diagnostics) {
    const id = hitConstraintId(d);
    if (id === null || d.suppressed !== undefined) {
      out.push(d);
      continue;
    }
    const near = markersOf(d.file).filter((m) => (m.line === d.line || m.line === d.line - 1) && sameConstraint(m.id, id));
    const valid = near.find((m) => m.reason !== null);
    if (valid) {
      out.push({ ...d, suppressed: { kind: 'inSource', reason: valid.reason! } });
      continue;
    }
    out.push(d);
    for (const m of near) {
      const key = `${d.file}\n${m.line}\n${id}\n${d.severity}`;
      if (reasonless.has(key)) continue;
      reasonless.set(
        key,
        diagnostic({
          file: d.file,
          line: m.line,
          severity: d.severity,
          ruleId: SUPPRESSION_WITHOUT_REASON,
          message: `"findings-ignore ${m.id}" has no reason, so it suppresses nothing: write \`findings-ignore ${m.id}: <why this hit is acceptable>\``,
          notes: [`findings explain ${id}`],
        }),
      );
    }
  }
  return [...out, ...reasonless.values()];
}
