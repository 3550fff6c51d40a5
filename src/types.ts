/** Shapes of the file formats. The JSON Schemas in `schemas/` are the source of truth; these mirror them. */

export const WORK_SHAPES = [
  'plan-shape',
  'classifier',
  'enum-parser',
  'struct-change',
  'pattern-matcher',
  'validation-gap',
  'test-gap',
  'docs-drift',
] as const;
export type WorkShape = (typeof WORK_SHAPES)[number];

export type RegistryStatus = 'active' | 'superseded' | 'retired';
export type Tier = 'local' | 'seed' | 'pulled';

/** One line of `.agents/findings/registry.jsonl` (schemas/finding-registry.schema.json). */
export interface RegistryEntry {
  id: string;
  version: 1;
  tier: Tier;
  source: { repo: string; session: string; file: string; skill: string };
  date: string;
  severity: string;
  category: string;
  pattern: string;
  detection_question: string;
  checklist_item: string;
  applicable_languages: string[];
  applicable_when: WorkShape[];
  status: RegistryStatus;
  superseded_by: string | null;
  dedup_key: string;
  hit_count: number;
  last_cited: string | null;
  ttl_days: number;
  confidence: string;
}

/** Canonical key order of a registry line (the schema's `required` order). */
export const REGISTRY_KEY_ORDER = [
  'id',
  'version',
  'tier',
  'source',
  'repo',
  'session',
  'file',
  'skill',
  'date',
  'severity',
  'category',
  'pattern',
  'detection_question',
  'checklist_item',
  'applicable_languages',
  'applicable_when',
  'status',
  'superseded_by',
  'dedup_key',
  'hit_count',
  'last_cited',
  'ttl_days',
  'confidence',
] as const;

export type ArtifactStatus = 'draft' | 'active' | 'retired' | 'superseded';
export type CompilerTarget = 'plan' | 'pre-mortem' | 'constraint';

export interface Detector {
  kind: 'regex' | 'content_pattern' | 'paired_files' | 'restricted_command';
  mode?: 'must_contain' | 'must_not_contain';
  pattern?: string;
  flags?: string;
  file_pattern?: string;
  exclude?: string;
  companion?: string;
  message?: string;
  command?: string;
}

export interface AppliesTo {
  scope?: 'files' | 'repo' | 'added-lines';
  issue_types?: string[];
  path_globs?: string[];
  path_prefixes?: string[];
  languages?: string[];
  extensions?: string[];
}

/** Front matter of `.agents/findings/<id>.md` (schemas/finding-artifact.schema.json). */
export interface ArtifactFrontMatter {
  id: string;
  type: 'finding';
  version?: 1;
  date: string;
  source_skill: string;
  source_artifact: string;
  source_bead?: string;
  source_phase?: 'research' | 'plan' | 'implement' | 'validate';
  title: string;
  summary: string;
  pattern: string;
  detection_question: string;
  checklist_item: string;
  severity: string;
  detectability: 'advisory' | 'mechanical';
  status: ArtifactStatus;
  /** As written; `premortem` is accepted as an alias of `pre-mortem`. */
  compiler_targets: string[];
  scope_tags: string[];
  dedup_key: string;
  applicable_when: WorkShape[];
  applicable_languages: string[];
  tier?: Tier;
  confidence?: string;
  ttl_days?: number;
  hit_count?: number;
  last_cited?: string | null;
  supersedes?: string;
  superseded_by?: string;
  retired_by?: string;
  utility?: number;
  compiler?: {
    review_file?: string;
    applies_to?: AppliesTo;
    detector?: Detector;
    evidence?: { positive_refs?: string[]; negative_control_refs?: string[] };
  };
}

export type ConstraintStatus = 'shadow' | 'active' | 'retired' | 'draft';

/**
 * The activation evidence of an earlier release (`evidence.shadow_measurement`). Read only, to
 * migrate an old index; an entry now carries the flat fields of ConstraintEvidence.
 */
export interface ShadowMeasurement {
  samples: number;
  hits?: number;
  labelled: number;
  true_positives: number;
  false_positives: number;
  precision: number;
  /** Repository-relative path of the measurement file. */
  evidence_ref: string;
  measured_at_commit?: string;
}

/** `applies_to` of an index entry (upstream's keys; docs/compiler.md "The constraint index"). */
export interface ConstraintAppliesTo {
  scope: string;
  issue_types?: string[];
  /** Always set in memory ([] when the file has none). */
  path_globs: string[];
  languages?: string[];
}

/**
 * `detector` of an index entry. `mode` is absent for "a match is a violation" and `required`
 * for "a file without a match is a violation" (other spellings are normalised on read, see
 * src/constraints/shape.ts); flags live inline in the pattern (`(?i)…`).
 */
export interface ConstraintDetector {
  kind: string;
  mode?: string;
  pattern: string;
  exclude?: string;
  companion?: string;
  command?: string;
  message?: string;
  /** Extended index only: the language a structural detector parses (e.g. `kind: "ast-grep"`). */
  language?: string;
  /** Extended index only: a structural detector's rule object, kept as written. */
  rule?: Record<string, unknown>;
}

/** `evidence` of an index entry: fixtures, and the measurement an activation cites (flat, as upstream). */
export interface ConstraintEvidence {
  positive_refs?: string[];
  negative_control_refs?: string[];
  precision_evidence_ref?: string;
  shadow_samples?: number;
  true_positives?: number;
  false_positives?: number;
}

/** One entry of `.agents/constraints/index.json` (schemas/constraint-index.schema.json), in memory. */
export interface ConstraintEntry {
  id: string;
  finding_id: string;
  title: string;
  source: string;
  source_artifact: string;
  source_type?: string;
  compiler_targets?: string[];
  detectability?: string;
  status: ConstraintStatus;
  enforcement_mode: 'warn' | 'block' | 'off';
  compiled_at: string;
  review_file?: string;
  applies_to: ConstraintAppliesTo;
  detector: ConstraintDetector;
  evidence: ConstraintEvidence;
  file: string;
  /** Read from an index of an earlier release only; never written (the artifact holds it). */
  checklist_item?: string;
  /** Read from an index of an earlier release only; never written (the artifact holds it). */
  tier?: Tier;
  /**
   * In memory only, never written: the file that holds the entry (src/constraints/constraint-set.ts).
   * Absent for index.json; `extended` for `.agents/constraints/extended.json`.
   */
  origin?: ConstraintOrigin;
}

/** Which of the two constraint files holds an entry: upstream's `index.json`, or this project's `extended.json`. */
export type ConstraintOrigin = 'index' | 'extended';

export interface ConstraintIndex {
  schema_version: 1;
  constraints: ConstraintEntry[];
}

/** Keys upstream's strict decoder accepts, in the order it writes them (test/fixtures/agentops-tooling/INTEROP.md). */
export const ENTRY_KEYS = [
  'id',
  'finding_id',
  'title',
  'source',
  'source_artifact',
  'source_type',
  'compiler_targets',
  'detectability',
  'status',
  'enforcement_mode',
  'compiled_at',
  'review_file',
  'applies_to',
  'detector',
  'evidence',
  'file',
] as const;
export const APPLIES_TO_KEYS = ['scope', 'issue_types', 'path_globs', 'languages'] as const;
export const DETECTOR_KEYS = ['kind', 'mode', 'pattern', 'exclude', 'companion', 'command', 'message'] as const;
/** Detector keys of the extended index: upstream's, then the structural detectors' own. */
export const EXTENDED_DETECTOR_KEYS = [...DETECTOR_KEYS, 'language', 'rule'] as const;
export const EVIDENCE_KEYS = [
  'positive_refs',
  'negative_control_refs',
  'precision_evidence_ref',
  'shadow_samples',
  'true_positives',
  'false_positives',
] as const;

/** Key order inside `applies_to` (index entries and measurements share it). */
export const APPLIES_TO_KEY_ORDER = APPLIES_TO_KEYS;

/** Key order inside `detector` (index entries and measurements share it). */
export const DETECTOR_KEY_ORDER = DETECTOR_KEYS;

/** Key order for index.json and its entries. */
export const CONSTRAINT_KEY_ORDER = [
  'schema_version',
  'constraints',
  ...ENTRY_KEYS,
  ...APPLIES_TO_KEYS,
  ...EXTENDED_DETECTOR_KEYS,
  ...EVIDENCE_KEYS,
] as const;

/** The prefix constraint ids had in earlier releases (`c-<finding id>`); still accepted on input. */
export const LEGACY_ID_PREFIX = 'c-';

/** Constraint id for a finding id: one constraint per finding, the same id (as upstream). */
export const constraintIdFor = (findingId: string): string => findingId;
