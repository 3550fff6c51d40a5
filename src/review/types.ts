/**
 * Shapes of the review ledger (contract: docs/contracts/review-ledger.md). schemas/review-event.schema.json
 * is the source of truth; these mirror it.
 */

export const ORIGINS = ['qa', 'pr_gate', 'pm', 'ceo'] as const;
export type Origin = (typeof ORIGINS)[number];

/** Contract "The Finding shape": blocker → major → minor → nit. */
export const SEVERITIES = ['blocker', 'major', 'minor', 'nit'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Contract "Waiving a finding": only these may be waived. */
export const WAIVABLE: readonly Severity[] = ['minor', 'nit'];

export type FindingStatus = 'open' | 'addressed' | 'verified' | 'waived';

/** The finding as filed (the contract's shape, normalised: absent optional fields are null). */
export interface FindingBody {
  file: string | null;
  line: number | null;
  severity: Severity;
  criterion: string | null;
  expected: string;
  actual: string;
  fix: string | null;
  evidence: string | null;
  class: string | null;
}

interface EventBase {
  event_id: string;
  task: string;
  finding_id: string;
  actor: string | null;
  at: string;
  /** Where the event was read (1-based line of the ledger); in memory only, never written. */
  readonly ledgerLine?: number;
}

export interface FiledEvent extends EventBase {
  type: 'filed';
  origin: Origin;
  round: number;
  index: number;
  finding: FindingBody;
}

export interface AddressedEvent extends EventBase {
  type: 'addressed';
  commit: string;
  note: string | null;
}

export interface VerifiedEvent extends EventBase {
  type: 'verified';
  origin: Origin;
}

export interface WaivedEvent extends EventBase {
  type: 'waived';
  actor: string;
  note: string;
}

/** One line of `.agents/reviews/<task>.jsonl`. */
export type ReviewEvent = FiledEvent | AddressedEvent | VerifiedEvent | WaivedEvent;

/** Key order of a ledger line (stableLine). */
export const EVENT_KEY_ORDER = [
  'event_id',
  'type',
  'task',
  'finding_id',
  'origin',
  'round',
  'index',
  'commit',
  'note',
  'actor',
  'at',
  'finding',
  'file',
  'line',
  'severity',
  'criterion',
  'expected',
  'actual',
  'fix',
  'evidence',
  'class',
] as const;

/** `.agents/tasks/<task>.json` (schemas/task.schema.json). */
export interface TaskFile {
  id: string;
  criteria: { id: string; text: string }[];
  owner?: string;
  objective?: string;
}

/** `.agents/roles.json` (schemas/roles.schema.json): role → git identities. */
export type Roles = Readonly<Record<string, readonly string[]>>;
