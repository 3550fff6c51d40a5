/**
 * Planning one review round (contract: "The four producers", "Count guard", "What happens when
 * you file one"). Pure: raw input in, events to append or refusals out. Nothing is written unless
 * every finding is valid and the merged count is at most COUNT_HARD.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { checkFinding, codePoints, COUNT_HARD, COUNT_SOFT, isPlaceholder, LIMITS } from './finding-rules.js';
import { hashId } from './ids.js';
import type { ReviewFinding } from './ledger.js';
import { foldEvents } from './ledger.js';
import type { FiledEvent, FindingBody, Origin, TaskFile } from './types.js';

/** Legacy `--issue` strings (contract: deprecated shim) become file-less `major` findings. */
export const LEGACY_EXPECTED = 'issue resolved';
/** `ceo-reject` (contract: "`ceo_reject` specifically"). */
export const CEO_EXPECTED = 'CEO sign-off on this task';

export interface FilingInput {
  readonly task: string;
  readonly origin: Origin;
  readonly taskFile: TaskFile | null;
  /** Parsed `--findings` content (should be an array), or null when not given. */
  readonly findings: unknown;
  /** Display name of the findings source (`F.json`, `<stdin>`) and element start lines. */
  readonly source: string;
  readonly elementLines: readonly number[];
  readonly issues: readonly string[];
  readonly actor: string | null;
  readonly at: string;
  /** Findings already on the task's ledger (for the round number). */
  readonly existing: readonly ReviewFinding[];
}

export interface FilingPlan {
  readonly events: FiledEvent[];
  /** The new findings, folded (for printing). */
  readonly filed: ReviewFinding[];
  /** Errors refuse the whole call (events is then empty); warnings do not. */
  readonly diagnostics: Diagnostic[];
}

/** round = previous rounds on the task + 1 (the highest round seen, so a merge of two branches never reuses one). */
export function nextRound(existing: readonly ReviewFinding[]): number {
  return existing.reduce((m, f) => Math.max(m, f.round), 0) + 1;
}

/** Plans one round of findings for a task. */
export function planFiling(input: FilingInput): FilingPlan {
  const diagnostics: Diagnostic[] = [];
  const bodies: FindingBody[] = [];
  const refuse = (line: number, ruleId: string, message: string, file = input.source): void => {
    diagnostics.push(diagnostic({ file, line, ruleId, message }));
  };
  if (input.findings !== null) {
    if (!Array.isArray(input.findings)) refuse(1, 'review/findings-not-array', 'the findings file must be a JSON array of finding objects');
    else {
      input.findings.forEach((raw, i) => {
        const checked = checkFinding(raw, input.taskFile, input.task);
        if ('problems' in checked) {
          for (const p of checked.problems)
            refuse(input.elementLines[i] ?? 1, 'review/invalid-finding', `findings[${i}].${p.field}: ${p.message}`);
        } else bodies.push(checked.finding);
      });
    }
  }
  input.issues.forEach((text, i) => {
    if (text.trim() === '') refuse(0, 'review/invalid-finding', `--issue[${i}]: must not be empty`, '--issue');
    else if (isPlaceholder(text))
      refuse(0, 'review/invalid-finding', `--issue[${i}]: ${JSON.stringify(text)} is a placeholder: say what is wrong`, '--issue');
    else if (codePoints(text) > LIMITS.actual)
      refuse(
        0,
        'review/invalid-finding',
        `--issue[${i}]: is ${codePoints(text)} characters long; at most ${LIMITS.actual} allowed`,
        '--issue',
      );
    else
      bodies.push({
        file: null,
        line: null,
        severity: 'major',
        criterion: null,
        expected: LEGACY_EXPECTED,
        actual: text,
        fix: null,
        evidence: null,
        class: null,
      });
  });
  const structured = Array.isArray(input.findings) ? input.findings.length : 0;
  const total = structured + input.issues.length;
  const breakdown = `${structured} from --findings + ${input.issues.length} from --issue`;
  if (total === 0) refuse(0, 'review/no-findings', 'a review round needs at least one finding (give --findings or --issue)', input.source);
  else if (total > COUNT_HARD) {
    refuse(
      0,
      'review/too-many-findings',
      `${total} findings in one call (${breakdown}); at most ${COUNT_HARD}: split them across calls or file the blocking ones first`,
      input.source,
    );
  } else if (total > COUNT_SOFT) {
    diagnostics.push(
      diagnostic({
        file: input.source,
        ruleId: 'review/many-findings',
        severity: 'warning',
        message: `${total} findings in one call (${breakdown}); more than ${COUNT_SOFT} is hard to review: consider prioritising the blocking ones`,
      }),
    );
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { events: [], filed: [], diagnostics };
  const round = nextRound(input.existing);
  const events: FiledEvent[] = bodies.map((finding, index) => {
    const findingId = hashId({ task: input.task, origin: input.origin, round, index, at: input.at, finding });
    return {
      event_id: hashId({ type: 'filed', finding_id: findingId, actor: input.actor, at: input.at }),
      type: 'filed',
      task: input.task,
      finding_id: findingId,
      origin: input.origin,
      round,
      index,
      actor: input.actor,
      at: input.at,
      finding,
    };
  });
  return { events, filed: foldEvents(events), diagnostics };
}

/**
 * `text` cut to at most `limit` code points, ending in `…[N chars omitted]` (N code points left
 * out), as roboco cuts a long CEO reason. Text within the limit is returned unchanged. Pure.
 */
export function cutWithMarker(text: string, limit: number): string {
  const points = [...text];
  if (points.length <= limit) return text;
  // The marker's length depends on N's digits, and N on the marker's length: grow N until it fits.
  let omitted = points.length - limit;
  for (;;) {
    const marker = `…[${omitted} chars omitted]`;
    const keep = limit - codePoints(marker);
    if (points.length - keep === omitted) return points.slice(0, keep).join('') + marker;
    omitted = points.length - keep;
  }
}

/**
 * The CEO's rejection reason as the one finding of a `ceo` round, or the reason it is refused
 * (rule id `review/invalid-reason`). A reason over 300 code points is kept whole in `evidence`
 * (at most 2,000) and cut in `actual`, as roboco does.
 */
export function ceoFinding(reason: string): { finding: Record<string, unknown> } | { problem: string; ruleId: string } {
  const ruleId = 'review/invalid-reason';
  if (isPlaceholder(reason))
    return { ruleId, problem: `--reason ${JSON.stringify(reason)} is empty or a placeholder: say what must change for sign-off` };
  const text = reason.trim();
  const n = codePoints(text);
  if (n > LIMITS.evidence) return { ruleId, problem: `--reason is ${n} characters long; at most ${LIMITS.evidence} allowed` };
  if (n <= LIMITS.actual) return { finding: { severity: 'blocker', expected: CEO_EXPECTED, actual: text } };
  return { finding: { severity: 'blocker', expected: CEO_EXPECTED, actual: cutWithMarker(text, LIMITS.actual), evidence: text } };
}
