/**
 * The shape of `findings explain`'s answer (docs/reuse.md, "explain JSON"): one link type per step
 * of the chain, and the key order of the JSON form. Types and constants only, no logic: the chain
 * is built in ./chain.ts and rendered in ./render.ts.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { CommentsPrevented } from '../../import/prevented.js';
import type { ImportSource } from '../../review/types.js';

export type Matched = 'constraint' | 'finding' | 'candidate' | 'review-finding';

export interface HitLink {
  readonly id: string;
  readonly label: string;
  readonly file: string;
  readonly line: number;
  readonly at: { readonly commit: string; readonly path: string; readonly line: number };
}

export interface MeasurementLink {
  readonly file: string;
  readonly line: number;
  readonly measured_at_commit: string;
  readonly samples: number;
  readonly hits: number;
  readonly labelled: number;
  readonly true_positives: number;
  readonly false_positives: number;
  /** true positives / labelled hits; null when nothing is labelled. */
  readonly precision: number | null;
  readonly labelled_hits: readonly HitLink[];
  /** Imported review comments the constraint would have caught (docs/import.md); absent when none were imported. */
  readonly comments_prevented?: CommentsPrevented;
}

export interface ConstraintLink {
  readonly id: string;
  readonly file: string;
  readonly line: number;
  readonly finding_id: string;
  readonly title: string;
  readonly status: string;
  readonly enforcement_mode: string;
  readonly tier: string | null;
  readonly measurement: MeasurementLink | null;
}

export interface ArtifactLink {
  readonly id: string;
  readonly file: string;
  readonly line: number;
  readonly title: string | null;
  readonly status: string | null;
  readonly detectability: string | null;
  readonly tier: string | null;
}

export interface RegistryLink {
  readonly id: string;
  readonly file: string;
  readonly line: number;
  readonly tier: string;
  readonly status: string;
  readonly superseded_by: string | null;
  readonly source: { readonly repo: string; readonly session: string; readonly file: string; readonly skill: string };
  readonly date: string;
  readonly hit_count: number;
  readonly last_cited: string | null;
  readonly dedup_key: string;
}

export interface EvidenceLink {
  readonly objective: string;
  readonly task: string;
  readonly finding_id: string;
  readonly round: number;
  readonly origin: string;
  readonly file: string;
  readonly line: number;
}

export interface CandidateLink {
  readonly class_key: string;
  readonly file: string;
  readonly line: number;
  readonly derived: boolean;
  readonly recurrence_count: number;
  readonly advisory: true;
  readonly evidence: readonly EvidenceLink[];
}

export interface ReviewLink {
  readonly id: string;
  readonly short_id: string;
  readonly task: string;
  readonly objective: string;
  readonly round: number;
  readonly origin: string;
  readonly severity: string;
  readonly status: string;
  readonly file: string;
  readonly line: number;
  /** Where the defect was, when the finding names a file. */
  readonly at: { readonly file: string; readonly line: number | null } | null;
  readonly expected: string;
  readonly actual: string;
  readonly fix: string | null;
  /** True when the candidate cites this finding as its objective's occurrence. */
  readonly evidence_ref: boolean;
  /** An imported finding's origin: the review thread on the forge (docs/import.md); absent for findings filed here. */
  readonly source?: ImportSource;
}

export interface TaskLink {
  readonly task: string;
  readonly objective: string;
  readonly file: string;
  readonly line: number;
  readonly rounds: readonly number[];
  readonly origins: readonly string[];
}

export interface PulledLink {
  readonly url: string;
  readonly ref: string;
  readonly commit: string;
  readonly tier: string;
  readonly file: string;
  readonly line: number;
}

/** The documented, stable JSON shape of `findings explain --format json`. */
export interface ExplainChain {
  readonly query: string;
  readonly matched: Matched | null;
  readonly constraint: ConstraintLink | null;
  readonly artifact: ArtifactLink | null;
  readonly registry: RegistryLink | null;
  readonly candidate: CandidateLink | null;
  readonly review_findings: readonly ReviewLink[];
  readonly tasks: readonly TaskLink[];
  readonly pulled_from: PulledLink | null;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The key order of one object of the JSON form and of the objects nested in it, by key (a list's
 * elements share one shape). Each object has its own order (docs/reuse.md, "JSON shape"): one
 * global list cannot give `at` as commit, path, line in a labelled hit and `source` as repo,
 * session, file, skill in the registry link.
 */
export interface KeyShape {
  readonly keys: readonly string[];
  readonly nested?: Readonly<Record<string, KeyShape>>;
}

const DIAGNOSTIC_SHAPE: KeyShape = { keys: ['file', 'line', 'column', 'severity', 'ruleId', 'message', 'notes'] };

/** Key order of `findings explain --format json`, object by object (docs/reuse.md). */
export const EXPLAIN_SHAPE: KeyShape = {
  keys: ['query', 'matched', 'constraint', 'artifact', 'registry', 'candidate', 'review_findings', 'tasks', 'pulled_from', 'diagnostics'],
  nested: {
    constraint: {
      keys: ['id', 'file', 'line', 'finding_id', 'title', 'status', 'enforcement_mode', 'tier', 'measurement'],
      nested: {
        measurement: {
          keys: [
            'file',
            'line',
            'measured_at_commit',
            'samples',
            'hits',
            'labelled',
            'true_positives',
            'false_positives',
            'precision',
            'labelled_hits',
            'comments_prevented',
          ],
          nested: {
            labelled_hits: { keys: ['id', 'file', 'line', 'at', 'label'], nested: { at: { keys: ['commit', 'path', 'line'] } } },
            comments_prevented: { keys: ['count', 'comments'], nested: { comments: { keys: ['task', 'url', 'finding_id', 'hit'] } } },
          },
        },
      },
    },
    artifact: { keys: ['id', 'file', 'line', 'title', 'status', 'tier', 'detectability'] },
    registry: {
      keys: ['id', 'file', 'line', 'status', 'tier', 'superseded_by', 'source', 'date', 'hit_count', 'last_cited', 'dedup_key'],
      nested: { source: { keys: ['repo', 'session', 'file', 'skill'] } },
    },
    candidate: {
      keys: ['class_key', 'file', 'line', 'derived', 'recurrence_count', 'advisory', 'evidence'],
      nested: { evidence: { keys: ['task', 'objective', 'file', 'line', 'finding_id', 'round', 'origin'] } },
    },
    review_findings: {
      keys: [
        'id',
        'short_id',
        'task',
        'objective',
        'file',
        'line',
        'status',
        'round',
        'origin',
        'severity',
        'at',
        'expected',
        'actual',
        'fix',
        'evidence_ref',
        'source',
      ],
      nested: {
        at: { keys: ['file', 'line'] },
        source: {
          keys: [
            'forge',
            'url',
            'pull',
            'thread',
            'author',
            'created_at',
            'updated_at',
            'comments',
            'commit',
            'line',
            'original_commit',
            'original_line',
          ],
        },
      },
    },
    tasks: { keys: ['task', 'objective', 'file', 'line', 'rounds', 'origins'] },
    pulled_from: { keys: ['url', 'file', 'line', 'tier', 'commit', 'ref'] },
    diagnostics: DIAGNOSTIC_SHAPE,
  },
};
