/**
 * Planning resolutions, verification and waivers (contract: "Resolving findings", "Verification",
 * "Waiving a finding"). Pure: the folded ledger in, events to append and per-entry problems out.
 */
import { isPlaceholder } from './finding-rules.js';
import { hashId, matchId } from './ids.js';
import type { ReviewFinding } from './ledger.js';
import { holdsRole } from './roles.js';
import { WAIVABLE, type AddressedEvent, type Origin, type Roles, type VerifiedEvent, type WaivedEvent } from './types.js';

/** One `--finding <id>[:<commit>]` / `--resolved <id>[:<commit>[:note]]` entry, commit already resolved. */
export interface ResolutionEntry {
  /** What the user typed as the id. */
  readonly input: string;
  /** Full commit sha, or null when the given revision did not resolve. */
  readonly commit: string | null;
  /** The revision as typed (for messages). */
  readonly rev: string;
  readonly note: string | null;
}

/**
 * Splits `<id>[:<commit>[:note]]` (the note may itself contain colons). `allowNote` is false for
 * `resolve --finding`, where a third part is an error rather than a note.
 */
export function splitResolution(value: string): { id: string; rev: string | null; note: string | null } {
  const first = value.indexOf(':');
  if (first === -1) return { id: value, rev: null, note: null };
  const rest = value.slice(first + 1);
  const second = rest.indexOf(':');
  if (second === -1) return { id: value.slice(0, first), rev: rest === '' ? null : rest, note: null };
  const note = rest.slice(second + 1);
  return { id: value.slice(0, first), rev: rest.slice(0, second) || null, note: note.trim() === '' ? null : note };
}

export interface ActionPlan<E> {
  readonly events: E[];
  /** Findings the events apply to (before the change). */
  readonly applied: ReviewFinding[];
  /** One line per refused entry: `<input>: <why>`. */
  readonly problems: string[];
}

/** Why an id does not name an open finding of `task`, or the finding. */
export function lookup(
  input: string,
  task: string,
  findings: readonly ReviewFinding[],
  others: readonly ReviewFinding[],
): { finding: ReviewFinding } | { problem: string } {
  const m = matchId(
    input,
    findings.map((f) => f.id),
  );
  if (m.kind === 'invalid') return { problem: `${input}: not a finding id (8 to 32 hex characters, optionally as F-… or [F-…])` };
  if (m.kind === 'ambiguous')
    return { problem: `${input}: ambiguous, matches ${m.ids.map((id) => `F-${id.slice(0, 12)}`).join(', ')}; give more characters` };
  if (m.kind === 'unknown') {
    const elsewhere = matchId(
      input,
      others.map((f) => f.id),
    );
    if (elsewhere.kind === 'match') {
      const f = others.find((o) => o.id === elsewhere.id)!;
      return { problem: `${input}: belongs to task "${f.task}", not "${task}"` };
    }
    return { problem: `${input}: no finding with this id on task "${task}"` };
  }
  return { finding: findings.find((f) => f.id === m.id)! };
}

/** Marks open findings `addressed`; unknown, ambiguous and not-open ids are problems, the rest still apply. */
export function planResolutions(
  task: string,
  entries: readonly ResolutionEntry[],
  findings: readonly ReviewFinding[],
  others: readonly ReviewFinding[],
  actor: string | null,
  at: string,
): ActionPlan<AddressedEvent> {
  const events: AddressedEvent[] = [];
  const applied: ReviewFinding[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    const found = lookup(entry.input, task, findings, others);
    if ('problem' in found) {
      problems.push(found.problem);
      continue;
    }
    const f = found.finding;
    if (applied.some((a) => a.id === f.id)) continue; // named twice in one call: once is enough
    if (f.status !== 'open') {
      problems.push(`${entry.input}: F-${f.shortId} is not open (it is ${f.status})`);
      continue;
    }
    if (entry.commit === null) {
      problems.push(`${entry.input}: commit "${entry.rev}" does not resolve to a commit in this repository`);
      continue;
    }
    events.push({
      event_id: hashId({ type: 'addressed', finding_id: f.id, commit: entry.commit, note: entry.note, actor, at }),
      type: 'addressed',
      task,
      finding_id: f.id,
      commit: entry.commit,
      note: entry.note,
      actor,
      at,
    });
    applied.push(f);
  }
  return { events, applied, problems };
}

/** The same origin's pass verifies every `addressed` finding of that origin, all rounds; nothing else. */
export function planPass(
  task: string,
  origin: Origin,
  findings: readonly ReviewFinding[],
  actor: string | null,
  at: string,
): ActionPlan<VerifiedEvent> {
  const applied = findings.filter((f) => f.origin === origin && f.status === 'addressed');
  const events: VerifiedEvent[] = applied.map((f) => ({
    event_id: hashId({ type: 'verified', finding_id: f.id, origin, actor, at }),
    type: 'verified',
    task,
    finding_id: f.id,
    origin,
    actor,
    at,
  }));
  return { events, applied, problems: [] };
}

/** A waiver: auditors only, open minor/nit only, with a real note. */
export function planWaiver(
  task: string,
  input: string,
  note: string,
  findings: readonly ReviewFinding[],
  others: readonly ReviewFinding[],
  roles: Roles,
  actor: string | null,
  at: string,
): ActionPlan<WaivedEvent> {
  const refuse = (problem: string): ActionPlan<WaivedEvent> => ({ events: [], applied: [], problems: [problem] });
  if (actor === null)
    return refuse('no acting identity: set `git config user.email` to an address listed under "auditor" in .agents/roles.json');
  if (!holdsRole(roles, 'auditor', actor))
    return refuse(`${actor} is not listed under "auditor" in .agents/roles.json: only auditors may waive findings`);
  const found = lookup(input, task, findings, others);
  if ('problem' in found) return refuse(found.problem);
  const f = found.finding;
  if (!WAIVABLE.includes(f.severity))
    return refuse(`F-${f.shortId} is a ${f.severity} finding: it must be fixed, never waived (only minor and nit findings can be waived)`);
  if (f.status !== 'open') return refuse(`F-${f.shortId} is not open (it is ${f.status}); only open findings can be waived`);
  if (isPlaceholder(note)) return refuse(`--note ${JSON.stringify(note)} is empty or a placeholder: explain why this finding is waived`);
  const event: WaivedEvent = {
    event_id: hashId({ type: 'waived', finding_id: f.id, note: note.trim(), actor, at }),
    type: 'waived',
    task,
    finding_id: f.id,
    note: note.trim(),
    actor,
    at,
  };
  return { events: [event], applied: [f], problems: [] };
}
