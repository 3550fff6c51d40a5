/** Deterministic renderings of findings (contract: "What happens when you file one"). Pure. */
import type { ReviewFinding } from './ledger.js';

/**
 * `[F-xxxxxxxx] file:line (severity) — expected → actual → fix`: `—` where there is no file,
 * `:line` only when there is a line, ` → fix` only when there is a fix.
 */
export function renderFinding(f: Pick<ReviewFinding, 'shortId' | 'file' | 'line' | 'severity' | 'expected' | 'actual' | 'fix'>): string {
  const place = `${f.file !== null ? visibleControls(f.file) : '—'}${f.line !== null ? `:${f.line}` : ''}`;
  const fix = f.fix !== null ? ` → ${oneLine(f.fix)}` : '';
  return `[F-${f.shortId}] ${place} (${f.severity}) — ${oneLine(f.expected)} → ${oneLine(f.actual)}${fix}`;
}

/** A rendering is one line: newlines inside a field become spaces. */
function oneLine(s: string): string {
  return s.replace(/\s*\r?\n\s*/g, ' ');
}

/**
 * A path is shown as it is, except control characters (U+0000–U+001F, U+007F), which producers
 * refuse but an older ledger line may hold: they are shown as `\u000a` so the rendering stays one line.
 */
function visibleControls(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The exact command that resolves a finding (shown by submit and the push gate). */
export function resolveCommand(f: Pick<ReviewFinding, 'task' | 'shortId'>): string {
  return `findings review resolve ${f.task} --finding ${f.shortId} --note "<what changed>"`;
}

/** `rendering [status]` for the full ledger view. */
export function renderWithStatus(f: ReviewFinding): string {
  return `${renderFinding(f)} [${f.status}]`;
}

/** Fills `{{slot}}`s of a logic-free template. Unknown slots are an error (a bug, not user input). */
export function fillTemplate(template: string, slots: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const v = slots[name];
    if (v === undefined) throw new Error(`template slot {{${name}}} has no value`);
    return v;
  });
}

/**
 * The slots of `.agents/reviews/<task>.md`: open findings first, then every round newest first
 * with each finding's status. Depends only on the folded state, so it is the same whatever the
 * ledger's line order.
 */
export function noteSlots(task: string, findings: readonly ReviewFinding[]): Record<string, string> {
  const open = findings.filter((f) => f.status === 'open');
  const rounds = [...new Set(findings.map((f) => f.round))].sort((a, b) => b - a);
  const roundBlocks = rounds.map((r) => {
    const inRound = findings.filter((f) => f.round === r);
    const origins = [...new Set(inRound.map((f) => f.origin))].sort().join(', ');
    return [`### Round ${r} (${origins})`, '', ...inRound.map((f) => `- ${renderWithStatus(f)}`)].join('\n');
  });
  const count = (s: string): number => findings.filter((f) => f.status === s).length;
  return {
    task,
    summary:
      `${findings.length} finding${findings.length === 1 ? '' : 's'}: ${count('open')} open,` +
      ` ${count('addressed')} addressed, ${count('verified')} verified, ${count('waived')} waived` +
      // Only imported threads can be resolved on a forge: notes of other tasks keep their wording.
      (count('resolved') > 0 ? `, ${count('resolved')} resolved` : ''),
    open: open.length > 0 ? open.map((f) => `- ${renderFinding(f)}`).join('\n') : '_None._',
    rounds: roundBlocks.length > 0 ? roundBlocks.join('\n\n') : '_No findings yet._',
  };
}
