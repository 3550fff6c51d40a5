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

export type ConstraintStatus = 'shadow' | 'active' | 'retired';

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

/** One entry of `.agents/constraints/index.json` (schemas/constraint-index.schema.json). */
export interface ConstraintEntry {
  id: string;
  finding_id: string;
  title: string;
  checklist_item?: string;
  status: ConstraintStatus;
  enforcement_mode: 'warn' | 'block' | 'off';
  source_artifact: string;
  review_file: string | null;
  compiled_at: string;
  tier?: Tier;
  applies_to: { scope: 'files' | 'repo' | 'added-lines'; path_globs: string[]; issue_types?: string[]; path_prefixes?: string[]; languages?: string[]; extensions?: string[] };
  detector: { kind: 'regex' | 'content_pattern'; mode?: 'must_contain' | 'must_not_contain'; pattern: string; flags?: string; message?: string };
  evidence: { positive_refs: string[]; negative_control_refs: string[]; shadow_measurement?: ShadowMeasurement };
}

export interface ConstraintIndex {
  version: 1;
  constraints: ConstraintEntry[];
}

/** Key order inside `applies_to` (index entries and measurements share it). */
export const APPLIES_TO_KEY_ORDER = ['scope', 'path_globs', 'path_prefixes', 'extensions', 'languages', 'issue_types'] as const;

/** Key order inside `detector` (index entries and measurements share it). */
export const DETECTOR_KEY_ORDER = ['kind', 'mode', 'pattern', 'flags', 'message'] as const;

/** Key order for index.json and its entries. */
export const CONSTRAINT_KEY_ORDER = [
  'version',
  'constraints',
  'id',
  'finding_id',
  'title',
  'checklist_item',
  'status',
  'enforcement_mode',
  'tier',
  'source_artifact',
  'review_file',
  'compiled_at',
  'applies_to',
  ...APPLIES_TO_KEY_ORDER,
  'detector',
  ...DETECTOR_KEY_ORDER,
  'evidence',
  'positive_refs',
  'negative_control_refs',
  'shadow_measurement',
  'samples',
  'hits',
  'labelled',
  'true_positives',
  'false_positives',
  'precision',
  'evidence_ref',
  'measured_at_commit',
] as const;

/** Constraint id for a finding id: one constraint per finding. */
export const constraintIdFor = (findingId: string): string => `c-${findingId}`;
