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
 * The chain's types and the key order of its JSON form live in ./types.ts.
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
import { entryLocation } from '../../constraints/constraint-set.js';
import type {
  CandidateLink,
  ConstraintLink,
  ExplainChain,
  HitLink,
  Matched,
  MeasurementLink,
  PulledLink,
  RegistryLink,
  ReviewLink,
  TaskLink,
} from './types.js';

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
      ...(m.value.comments_prevented !== undefined ? { comments_prevented: m.value.comments_prevented } : {}),
    };
  }
  const { file, line } = entryLocation(index.texts, c);
  return {
    id: c.id,
    file,
    line,
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
    ...(f.source !== null ? { source: f.source } : {}),
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
