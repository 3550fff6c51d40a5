/** Parsing and writing ledger lines. Pure: text in, events and diagnostics out. */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { stableLine } from '../json-stable.js';
import { isPlainObject, parseJsonl } from '../jsonl.js';
import { validate } from '../schema.js';
import { codePoints, findingFileProblem, LIMITS } from './finding-rules.js';
import { EVENT_KEY_ORDER, type ReviewEvent } from './types.js';

/** The task a ledger path belongs to (`.agents/reviews/<task>.jsonl`), or null. */
export function taskOfLedgerPath(file: string): string | null {
  const m = /(?:^|\/)\.agents\/reviews\/([^/]+)\.jsonl$/.exec(file);
  return m ? m[1]! : null;
}

/** One ledger line for an event (fixed key order, no in-memory fields). */
export function eventLine(event: ReviewEvent): string {
  const { ledgerLine: _omit, ...stored } = event;
  void _omit;
  return stableLine(stored, EVENT_KEY_ORDER);
}

/** Fields each event type may carry (the schema's unevaluatedProperties, said with the field's name). */
const EVENT_FIELDS: Record<string, readonly string[]> = {
  filed: ['origin', 'round', 'index', 'finding'],
  addressed: ['commit', 'note'],
  verified: ['origin'],
  waived: ['note'],
  updated: ['finding', 'source'],
  resolved: ['commit', 'note'],
};
const COMMON_FIELDS = ['event_id', 'type', 'task', 'finding_id', 'actor', 'at'];

/** ajv's "must NOT have unevaluated properties" names no field: name them. */
function nameUnknownFields(value: unknown, problems: string[]): string[] {
  if (!isPlainObject(value) || !problems.some((p) => p.includes('unevaluated properties'))) return problems;
  const allowed = new Set([...COMMON_FIELDS, ...(EVENT_FIELDS[String(value['type'])] ?? [])]);
  const unknown = Object.keys(value)
    .filter((k) => !allowed.has(k))
    .sort();
  return [
    ...problems.filter((p) => !p.includes('unevaluated properties')),
    ...unknown.map((k) => `unknown field "${k}" for a ${String(value['type'])} event`),
  ];
}

/** Rules a schema cannot say well: code-point limits and the `file` path rules on `filed` lines. */
function filedProblems(value: Record<string, unknown>): string[] {
  const finding = value['finding'];
  if (!isPlainObject(finding)) return [];
  // `updated` lines carry a whole finding too: the same limits apply.
  const out: string[] = [];
  for (const key of ['expected', 'actual', 'fix', 'evidence'] as const) {
    const v = finding[key];
    if (typeof v === 'string' && codePoints(v) > LIMITS[key])
      out.push(`field "finding.${key}" is ${codePoints(v)} characters long; at most ${LIMITS[key]} allowed`);
  }
  const file = finding['file'];
  if (typeof file === 'string') {
    const p = findingFileProblem(file);
    if (p) out.push(`field "finding.file" ${JSON.stringify(file)} ${p}`);
  }
  return out;
}

/**
 * Parses a ledger's text. Lines that are not valid events become error diagnostics (rule ids
 * `review/invalid-json`, `review/schema`, `review/task-mismatch`) and are left out of the events.
 */
export function parseLedger(text: string, file: string, task: string): { events: ReviewEvent[]; diagnostics: Diagnostic[] } {
  const events: ReviewEvent[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const parsed of parseJsonl(text)) {
    const line = parsed.raw.line;
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'invalid') {
      diagnostics.push(diagnostic({ file, line, ruleId: 'review/invalid-json', message: parsed.reason }));
      continue;
    }
    const problems = nameUnknownFields(parsed.value, validate('review-event', parsed.value));
    if (problems.length === 0 && isPlainObject(parsed.value) && (parsed.value['type'] === 'filed' || parsed.value['type'] === 'updated'))
      problems.push(...filedProblems(parsed.value));
    if (problems.length > 0) {
      for (const message of problems) diagnostics.push(diagnostic({ file, line, ruleId: 'review/schema', message }));
      continue;
    }
    const value = parsed.value as ReviewEvent;
    if (value.task !== task) {
      diagnostics.push(
        diagnostic({
          file,
          line,
          ruleId: 'review/task-mismatch',
          message: `event names task "${value.task}" but the ledger belongs to task "${task}"`,
        }),
      );
      continue;
    }
    events.push({ ...value, ledgerLine: line });
  }
  return { events, diagnostics };
}
