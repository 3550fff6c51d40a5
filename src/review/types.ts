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

/** `resolved`: an imported thread that was resolved on the forge (docs/import.md). */
export type FindingStatus = 'open' | 'addressed' | 'verified' | 'waived' | 'resolved';

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

/**
 * Where an imported finding came from (docs/import.md; schemas/review-event.schema.json `source`):
 * the forge's thread, its comments and the commit they were made on.
 */
export interface ImportSource {
  forge: 'github' | 'gitlab';
  /** Stable thread key: `github:<owner>/<repo>#<first comment id>`, `gitlab:<discussion id>`. */
  thread: string;
  url: string | null;
  /** Pull request number or merge request iid. */
  pull: number;
  author: string | null;
  created_at: string;
  /** The latest creation or edit among the thread's comments. */
  updated_at: string;
  /** Comment (note) ids, first comment first. */
  comments: string[];
  commit: string | null;
  line: number | null;
  original_commit: string | null;
  original_line: number | null;
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
  /** Imported findings only: where the thread came from. */
  source?: ImportSource;
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

/** An imported thread changed on the forge (an edit, a reply): its finding and source as they are now. */
export interface UpdatedEvent extends EventBase {
  type: 'updated';
  finding: FindingBody;
  source: ImportSource;
}

/** An imported thread was resolved on the forge; `actor` is who resolved it (null when the export does not say). */
export interface ResolvedEvent extends EventBase {
  type: 'resolved';
  /** The commit that applied the reviewer's suggestion, when it is in the history. */
  commit: string | null;
  note: string | null;
}

/** One line of `.agents/reviews/<task>.jsonl`. */
export type ReviewEvent = FiledEvent | AddressedEvent | VerifiedEvent | WaivedEvent | UpdatedEvent | ResolvedEvent;

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
  'source',
  'forge',
  'thread',
  'url',
  'pull',
  'author',
  'created_at',
  'updated_at',
  'comments',
  'original_commit',
  'original_line',
] as const;

/** `.agents/tasks/<task>.json` (schemas/task.schema.json). */
export interface TaskFile {
  id: string;
  criteria: { id: string; text: string }[];
  owner?: string;
  objective?: string;
  /** An imported task: the pull or merge request it stands for (docs/import.md). */
  source?: string;
}

/** `.agents/roles.json` (schemas/roles.schema.json): role → git identities. */
export type Roles = Readonly<Record<string, readonly string[]>>;
