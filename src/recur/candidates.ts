/**
 * Recurrence candidates (docs/contracts/compiler.md#recurrence-producer-defects): findings grouped
 * by class and counted by distinct objective. One objective: an observation, nothing emitted.
 * Two or more: exactly one advisory candidate for the class, one evidence reference per
 * objective, recurrence_count = the number of objectives. Pure.
 */
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { stableLine } from '../json-stable.js';
import { isPlainObject, parseJsonl } from '../jsonl.js';
import { Layout } from '../layout.js';
import { entryProblems } from '../registry/writer.js';
import { validate } from '../schema.js';
import { REGISTRY_KEY_ORDER, type RegistryEntry } from '../types.js';
import { classOf, type RecurFinding } from './classify.js';
import { draftEntry } from './draft.js';

export interface EvidenceRef {
  readonly objective: string;
  readonly task: string;
  readonly finding_id: string;
  readonly round: number;
  readonly origin: string;
  readonly ledger_file: string;
  readonly ledger_line: number;
}

/** One line of `.agents/findings/candidates.jsonl` (schemas/candidate.schema.json). */
export interface Candidate {
  readonly class_key: string;
  readonly derived: boolean;
  readonly recurrence_count: number;
  readonly advisory: true;
  readonly evidence: readonly EvidenceRef[];
  /** Always true: the proposed entry is a draft for a person to edit before promoting it. */
  readonly draft: true;
  readonly proposed_entry: RegistryEntry;
}

export const CANDIDATE_KEY_ORDER = [
  'class_key',
  'derived',
  'recurrence_count',
  'advisory',
  'evidence',
  'objective',
  'task',
  'finding_id',
  'round',
  'origin',
  'ledger_file',
  'ledger_line',
  'draft',
  'proposed_entry',
  ...REGISTRY_KEY_ORDER,
] as const;

/** Earliest round first, then task, then id: the occurrence that stands for its objective. */
const compareOccurrence = (a: RecurFinding, b: RecurFinding): number =>
  a.round - b.round || compareStrings(a.task, b.task) || compareStrings(a.id, b.id);

/**
 * Builds the candidates from every review finding. `objectiveOf` gives a task's objective (the
 * task id itself when it has none). `kept` maps class keys to proposed entries a person may have
 * edited in candidates.jsonl: those are kept instead of the fresh draft.
 */
export function buildCandidates(
  findings: readonly RecurFinding[],
  objectiveOf: (task: string) => string,
  kept: ReadonlyMap<string, RegistryEntry> = new Map(),
): Candidate[] {
  const classes = new Map<string, { derived: boolean; findings: RecurFinding[] }>();
  for (const f of findings) {
    const c = classOf(f);
    let group = classes.get(c.key);
    if (!group) classes.set(c.key, (group = { derived: c.derived, findings: [] }));
    group.findings.push(f);
  }
  const out: Candidate[] = [];
  for (const [key, group] of classes) {
    // Retries and repeated rounds inside one objective collapse to one occurrence.
    const byObjective = new Map<string, RecurFinding>();
    for (const f of group.findings) {
      const objective = objectiveOf(f.task);
      const current = byObjective.get(objective);
      if (!current || compareOccurrence(f, current) < 0) byObjective.set(objective, f);
    }
    if (byObjective.size < 2) continue;
    const evidence = [...byObjective.entries()]
      .sort(([a], [b]) => compareStrings(a, b))
      .map(
        ([objective, f]): EvidenceRef => ({
          objective,
          task: f.task,
          finding_id: f.id,
          round: f.round,
          origin: f.origin,
          ledger_file: f.ledgerFile,
          ledger_line: f.ledgerLine,
        }),
      );
    out.push({
      class_key: key,
      derived: group.derived,
      recurrence_count: byObjective.size,
      advisory: true,
      evidence,
      draft: true,
      proposed_entry: kept.get(key) ?? draftEntry(key, group.findings),
    });
  }
  return out.sort((a, b) => compareStrings(a.class_key, b.class_key));
}

/** The canonical bytes of candidates.jsonl: one line per candidate, sorted by class key. */
export function serializeCandidates(candidates: readonly Candidate[]): string {
  return candidates.map((c) => `${stableLine(c, CANDIDATE_KEY_ORDER)}\n`).join('');
}

/** One schema-valid line of candidates.jsonl. */
export interface CandidateLine {
  readonly line: number;
  readonly candidate: Candidate;
}

/**
 * Parses candidates.jsonl — the one reader used by `recur`, `explain` and `validate`. Lines that
 * are not JSON or not valid candidates are returned as problems with their line number. Pure.
 */
export function parseCandidateLines(text: string): { lines: CandidateLine[]; problems: { line: number; reason: string }[] } {
  const lines: CandidateLine[] = [];
  const problems: { line: number; reason: string }[] = [];
  for (const parsed of parseJsonl(text)) {
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'invalid') {
      problems.push({ line: parsed.raw.line, reason: parsed.reason });
      continue;
    }
    const errors = validate('candidate', parsed.value);
    if (errors.length > 0 || !isPlainObject(parsed.value)) {
      problems.push({ line: parsed.raw.line, reason: errors.join('; ') || 'not a JSON object' });
      continue;
    }
    lines.push({ line: parsed.raw.line, candidate: parsed.value as unknown as Candidate });
  }
  return { lines, problems };
}

/**
 * Reads the proposed entries of an existing candidates.jsonl (so a person's edits survive the
 * next `findings recur`). A line that is not a valid candidate with a valid registry entry is an
 * error: recur never rewrites (and so never drops) a line it cannot read.
 */
export function keptEntries(
  text: string,
  file: string = Layout.candidates,
): { kept: Map<string, RegistryEntry>; diagnostics: Diagnostic[] } {
  const kept = new Map<string, RegistryEntry>();
  const diagnostics: Diagnostic[] = [];
  const warn = (line: number, message: string): void => {
    diagnostics.push(
      diagnostic({
        file,
        line,
        ruleId: 'recur/invalid-candidate',
        message: `${message}; fix or delete this line (recur does not rewrite a file with lines it cannot read)`,
      }),
    );
  };
  const { lines, problems } = parseCandidateLines(text);
  for (const p of problems) warn(p.line, p.reason);
  for (const { line, candidate } of lines) {
    const entryErrors = entryProblems(candidate.proposed_entry);
    if (entryErrors.length > 0) {
      warn(line, `proposed_entry is not a valid registry line: ${entryErrors.join('; ')}`);
      continue;
    }
    kept.set(candidate.class_key, candidate.proposed_entry);
  }
  diagnostics.sort((a, b) => a.line - b.line);
  return { kept, diagnostics };
}
