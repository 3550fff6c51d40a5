/**
 * `findings explain <id>`: resolves an id to the chain that applies (docs/reuse.md) — constraint →
 * promoted artifact → registry line → the candidate that proposed it → the review findings and
 * tasks whose recurrence produced it, and for pulled findings the source and commit. Every link
 * carries `file` and `line`: where that link is recorded. Deterministic: every list has a total
 * order, no time or absolute path is added. The shape is documented in docs/reuse.md
 * ("explain JSON") and is stable.
 *
 * Which id wins when one string could be several: constraint id, then finding/registry id, then
 * candidate class key, then review finding id (8-character form, a longer prefix or the full id).
 */
import { compareStrings, diagnostic, type Diagnostic } from '../../diagnostics.js';
import { enforcementFor } from '../../constraints/index-file.js';
import { Layout, taskPath } from '../../layout.js';
import { summarize } from '../../lifecycle/measurement.js';
import { classOf } from '../../recur/classify.js';
import { latestById } from '../../registry/latest.js';
import type { RegistryLine } from '../../registry/reader.js';
import { matchId } from '../../review/ids.js';
import type { ReviewFinding } from '../../review/ledger.js';
import type { ConstraintEntry } from '../../types.js';
import { recordLine } from '../sources-file.js';
import { jsonKeyLine, keyLine, type CandidateLine, type ExplainSources } from './load.js';

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
          ],
          nested: {
            labelled_hits: { keys: ['id', 'file', 'line', 'at', 'label'], nested: { at: { keys: ['commit', 'path', 'line'] } } },
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
      ],
      nested: { at: { keys: ['file', 'line'] } },
    },
    tasks: { keys: ['task', 'objective', 'file', 'line', 'rounds', 'origins'] },
    pulled_from: { keys: ['url', 'file', 'line', 'tier', 'commit', 'ref'] },
    diagnostics: DIAGNOSTIC_SHAPE,
  },
};

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The last line with this id: a later line is the finding's newer state (docs/registry.md "Appended updates"). */
function latestOfId(registry: readonly RegistryLine[], id: string): RegistryLine | undefined {
  let found: RegistryLine | undefined;
  for (const l of registry) if (l.entry.id === id) found = l;
  return found;
}

/**
 * The active line with this dedup key, else the latest (the registry document's rule), among
 * each id's latest line only: an older line of an id updated by appending is not its state.
 */
function byDedupKey(registry: readonly RegistryLine[], key: string): RegistryLine | undefined {
  let latest: RegistryLine | undefined;
  for (const l of latestById(registry)) {
    if (l.entry.dedup_key !== key) continue;
    if (l.entry.status === 'active') return l;
    latest = l;
  }
  return latest;
}

function registryLink(l: RegistryLine): RegistryLink {
  const e = l.entry;
  return {
    id: e.id,
    file: Layout.registry,
    line: l.line,
    tier: e.tier,
    status: e.status,
    superseded_by: e.superseded_by,
    source: { ...e.source },
    date: e.date,
    hit_count: e.hit_count,
    last_cited: e.last_cited,
    dedup_key: e.dedup_key,
  };
}

function candidateLink(c: CandidateLine): CandidateLink {
  return {
    class_key: c.class_key,
    file: Layout.candidates,
    line: c.line,
    derived: c.derived,
    recurrence_count: c.recurrence_count,
    advisory: true,
    evidence: c.evidence.map((e) => ({
      objective: e.objective,
      task: e.task,
      finding_id: e.finding_id,
      round: e.round,
      origin: e.origin,
      file: e.ledger_file,
      line: e.ledger_line,
    })),
  };
}

/** A candidate proposed this entry when its proposed dedup_key (or id) is the entry's (docs/lifecycle.md). */
function candidateFor(candidates: readonly CandidateLine[], dedupKey: string | null, id: string): CandidateLine | undefined {
  return candidates.find((c) => (dedupKey !== null && c.proposed_entry.dedup_key === dedupKey) || c.proposed_entry.id === id);
}

async function constraintLink(src: ExplainSources, c: ConstraintEntry): Promise<ConstraintLink> {
  const index = src.index!;
  const m = await src.measurement(c.id);
  let measurement: MeasurementLink | null = null;
  if (m !== null) {
    const s = summarize(m.value);
    const labelled_hits = m.value.hits
      .filter((h) => h.label !== undefined)
      .map(
        (h): HitLink => ({
          id: h.id,
          label: h.label!,
          file: m.file,
          line: jsonKeyLine(m.text, 'id', h.id),
          at: { commit: h.commit, path: h.path, line: h.line },
        }),
      )
      .sort((a, b) => compareStrings(a.id, b.id));
    measurement = {
      file: m.file,
      line: 1,
      measured_at_commit: m.value.measured_at_commit,
      samples: s.samples,
      hits: s.hits,
      labelled: s.labelled,
      true_positives: s.true_positives,
      false_positives: s.false_positives,
      precision: s.labelled === 0 ? null : s.precision,
      labelled_hits,
    };
  }
  return {
    id: c.id,
    file: index.file,
    line: jsonKeyLine(index.text, 'id', c.id),
    finding_id: c.finding_id,
    title: c.title,
    status: c.status,
    enforcement_mode: c.enforcement_mode ?? enforcementFor(c.status),
    tier: c.tier ?? null,
    measurement,
  };
}

function reviewLink(f: ReviewFinding, objective: string, evidenceRef: boolean): ReviewLink {
  return {
    id: f.id,
    short_id: f.shortId,
    task: f.task,
    objective,
    round: f.round,
    origin: f.origin,
    severity: f.severity,
    status: f.status,
    file: f.ledgerFile,
    line: f.ledgerLine,
    at: f.file === null ? null : { file: f.file, line: f.line },
    expected: f.expected,
    actual: f.actual,
    fix: f.fix,
    evidence_ref: evidenceRef,
  };
}

const empty = (query: string): ExplainChain => ({
  query,
  matched: null,
  constraint: null,
  artifact: null,
  registry: null,
  candidate: null,
  review_findings: [],
  tasks: [],
  pulled_from: null,
  diagnostics: [],
});

/** Builds the chain for one id. `matched: null` means nothing has that id (the CLI exits 1). */
export async function explain(src: ExplainSources, query: string): Promise<ExplainChain> {
  const q = query.trim();
  const diagnostics: Diagnostic[] = [];
  const constraints = src.index?.value ?? [];
  let matched: Matched | null = null;
  let constraint = constraints.find((c) => c.id === q);
  let findingId: string | null = null;
  let candidate: CandidateLine | undefined;
  let review: ReviewFinding | undefined;

  if (constraint !== undefined) {
    matched = 'constraint';
    findingId = constraint.finding_id;
  } else if (latestOfId(src.registry, q) !== undefined || constraints.some((c) => c.finding_id === q) || (await src.artifact(q)) !== null) {
    matched = 'finding';
    findingId = q;
  } else if ((candidate = src.candidates.find((c) => c.class_key === q)) !== undefined) {
    matched = 'candidate';
  } else {
    const m = matchId(
      q,
      src.reviews.map((f) => f.id),
    );
    if (m.kind === 'match') {
      matched = 'review-finding';
      review = src.reviews.find((f) => f.id === m.id);
      candidate = src.candidates.find((c) => c.class_key === classOf(review!).key);
    } else if (m.kind === 'ambiguous') {
      const shown = m.ids
        .map((id) => src.reviews.find((f) => f.id === id)!)
        .map((f) => `${f.shortId}… (${f.task}, round ${f.round}) ${f.ledgerFile}:${f.ledgerLine}`);
      return {
        ...empty(q),
        diagnostics: [
          diagnostic({
            file: Layout.reviewsDir,
            ruleId: 'explain/ambiguous-id',
            message: `"${q}" matches ${m.ids.length} review findings; give more characters`,
            notes: shown,
          }),
        ],
      };
    }
  }
  if (matched === null) {
    return {
      ...empty(q),
      diagnostics: [
        diagnostic({
          file: '.agents',
          ruleId: 'explain/unknown-id',
          message: `no constraint, finding, registry entry, candidate class or review finding has the id "${q}"`,
        }),
      ],
    };
  }

  // From a candidate to the entry it proposed (when it was promoted).
  let registryLine: RegistryLine | undefined;
  if (findingId === null && candidate !== undefined) {
    const key = str(candidate.proposed_entry.dedup_key);
    const pid = str(candidate.proposed_entry.id);
    registryLine = (key !== null ? byDedupKey(src.registry, key) : undefined) ?? (pid !== null ? latestOfId(src.registry, pid) : undefined);
    findingId =
      registryLine?.entry.id ??
      (pid !== null && (constraints.some((c) => c.finding_id === pid) || (await src.artifact(pid)) !== null) ? pid : null);
  }
  let artifact = null;
  if (findingId !== null) {
    registryLine ??= latestOfId(src.registry, findingId);
    constraint ??= constraints.find((c) => c.finding_id === findingId);
    artifact = await src.artifact(findingId);
    const dedupKey = registryLine?.entry.dedup_key ?? str(artifact?.data['dedup_key']);
    candidate ??= candidateFor(src.candidates, dedupKey, findingId);
  }

  // The review findings of the candidate's class (every round and task), or of the finding asked about.
  const classKey = candidate?.class_key ?? (review !== undefined ? classOf(review).key : null);
  const evidenceIds = new Set(candidate?.evidence.map((e) => e.finding_id) ?? []);
  const reviews = classKey === null ? [] : src.reviews.filter((f) => classOf(f).key === classKey);
  for (const e of candidate?.evidence ?? []) {
    if (!reviews.some((f) => f.id === e.finding_id)) {
      diagnostics.push(
        diagnostic({
          file: e.ledger_file,
          line: e.ledger_line,
          severity: 'warning',
          ruleId: 'explain/missing-evidence',
          message: `candidate "${candidate!.class_key}" cites finding ${e.finding_id.slice(0, 8)} of task ${e.task}, which is not in the review ledgers`,
        }),
      );
    }
  }
  const objectiveOf = (task: string): string => src.objectives.get(task) ?? task;
  const review_findings = reviews.map((f) => reviewLink(f, objectiveOf(f.task), evidenceIds.has(f.id)));
  const tasks: TaskLink[] = [];
  for (const task of [...new Set(review_findings.map((r) => r.task))].sort(compareStrings)) {
    const mine = review_findings.filter((r) => r.task === task);
    tasks.push({
      task,
      objective: objectiveOf(task),
      file: taskPath(task),
      line: 1,
      rounds: [...new Set(mine.map((r) => r.round))].sort((a, b) => a - b),
      origins: [...new Set(mine.map((r) => r.origin))].sort(compareStrings),
    });
  }

  let pulled_from: PulledLink | null = null;
  if (findingId !== null && src.sources !== null) {
    const s = src.sources.value.sources.find((r) => r.entries.some((e) => e.id === findingId));
    if (s !== undefined)
      pulled_from = {
        url: s.url,
        ref: s.ref,
        commit: s.commit,
        tier: s.tier,
        file: src.sources.file,
        line: recordLine(src.sources.text, s.url),
      };
  }

  return {
    query: q,
    matched,
    constraint: constraint === undefined ? null : await constraintLink(src, constraint),
    artifact:
      artifact === null
        ? null
        : {
            id: findingId!,
            file: artifact.file,
            line: keyLine(artifact.yaml, artifact.yamlLine, 'id'),
            title: str(artifact.data['title']),
            status: str(artifact.data['status']),
            detectability: str(artifact.data['detectability']),
            tier: str(artifact.data['tier']),
          },
    registry: registryLine === undefined ? null : registryLink(registryLine),
    candidate: candidate === undefined ? null : candidateLink(candidate),
    review_findings,
    tasks,
    pulled_from,
    diagnostics,
  };
}
