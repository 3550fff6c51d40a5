/**
 * The I/O edge of `findings explain`: reads every file a chain can link through, from any
 * RepoFiles source, into plain values. Reading is fail-open (a bad file becomes a diagnostic
 * and that link is left out): explain is read at the moment something blocked, and must still
 * say as much as it can.
 */
import { diagnostic, type Diagnostic } from '../../diagnostics.js';
import { readFrontMatter, keyLine } from '../../frontmatter.js';
import { artifactPath, Layout, measurementPath, SAFE_ID } from '../../layout.js';
import { hasConstraintFiles, parseConstraintSet, type ConstraintTexts } from '../../constraints/constraint-set.js';
import { parseMeasurement, type Measurement } from '../../lifecycle/measurement.js';
import { readRegistry, type RegistryLine } from '../../registry/reader.js';
import type { RepoFiles } from '../../repo-files.js';
import { readAllLedgers, readTask, type ReviewFinding } from '../../review/ledger.js';
import type { ConstraintEntry } from '../../types.js';
import { parseSourcesFile, type SourcesFile } from '../sources-file.js';
import { parseCandidateLines } from '../../recur/candidates.js';

/** A JSON file's text with its parsed value. */
export interface Located<T> {
  readonly file: string;
  readonly text: string;
  readonly value: T;
}

export interface CandidateLine {
  readonly line: number;
  readonly class_key: string;
  readonly derived: boolean;
  readonly recurrence_count: number;
  readonly evidence: readonly {
    objective: string;
    task: string;
    finding_id: string;
    round: number;
    origin: string;
    ledger_file: string;
    ledger_line: number;
  }[];
  readonly proposed_entry: { id?: unknown; dedup_key?: unknown };
}

export interface ArtifactInfo {
  readonly file: string;
  readonly data: Record<string, unknown>;
  readonly yaml: string;
  readonly yamlLine: number;
}

/** Everything explain may link through. Lazily completed per finding (artifacts, measurements). */
export interface ExplainSources {
  /** The constraint set (index.json and extended.json: src/constraints/constraint-set.ts), with both files' texts. */
  readonly index: { readonly texts: ConstraintTexts; readonly value: readonly ConstraintEntry[] } | null;
  readonly registry: readonly RegistryLine[];
  readonly candidates: readonly CandidateLine[];
  readonly reviews: readonly ReviewFinding[];
  readonly objectives: ReadonlyMap<string, string>;
  readonly sources: Located<SourcesFile> | null;
  /** Reads `.agents/findings/<id>.md`'s front matter (null when absent or unreadable). */
  artifact(id: string): Promise<ArtifactInfo | null>;
  /** Reads a constraint's measurement (null when absent or unreadable). */
  measurement(constraintId: string): Promise<Located<Measurement> | null>;
  readonly diagnostics: Diagnostic[];
}

const asWarning = (d: Diagnostic): Diagnostic => ({ ...d, severity: d.severity === 'error' ? 'warning' : d.severity });

function parseCandidates(text: string, diagnostics: Diagnostic[]): CandidateLine[] {
  const { lines, problems } = parseCandidateLines(text);
  for (const p of problems) {
    diagnostics.push(
      diagnostic({
        file: Layout.candidates,
        line: p.line,
        severity: 'warning',
        ruleId: 'explain/candidate',
        message: `${p.reason}; line ignored`,
      }),
    );
  }
  return lines.map(({ line, candidate: v }) => ({
    line,
    class_key: v.class_key,
    derived: v.derived,
    recurrence_count: v.recurrence_count,
    evidence: v.evidence,
    proposed_entry: v.proposed_entry,
  }));
}

/** Loads the explain sources from a file source (the working tree for the CLI). */
export async function loadExplainSources(files: RepoFiles): Promise<ExplainSources> {
  const diagnostics: Diagnostic[] = [];
  const text = async (file: string): Promise<string | null> => {
    const data = await files.read(file);
    return data === null ? null : data.toString('utf8');
  };

  let index: ExplainSources['index'] = null;
  const texts: ConstraintTexts = { index: await text(Layout.constraintIndex), extended: await text(Layout.extendedIndex) };
  if (hasConstraintFiles(texts)) {
    const parsed = parseConstraintSet(texts);
    if (parsed.ok) index = { texts, value: parsed.index.constraints };
    else diagnostics.push(...parsed.diagnostics.map(asWarning));
  }

  const registry = await readRegistry(files);
  diagnostics.push(...registry.warnings);

  const candidatesText = await text(Layout.candidates);
  const candidates = candidatesText === null ? [] : parseCandidates(candidatesText, diagnostics);

  const ledgers = await readAllLedgers(files);
  diagnostics.push(...ledgers.diagnostics.map(asWarning));
  const objectives = new Map<string, string>();
  for (const task of new Set(ledgers.findings.map((f) => f.task))) {
    const t = await readTask(files, task).catch(() => null);
    objectives.set(task, t?.objective ?? task);
  }

  let sources: Located<SourcesFile> | null = null;
  const sourcesText = await text(Layout.sources);
  if (sourcesText !== null) {
    const parsed = parseSourcesFile(sourcesText);
    if (parsed.ok) sources = { file: Layout.sources, text: sourcesText, value: parsed.value };
    else diagnostics.push(...parsed.diagnostics.map(asWarning));
  }

  return {
    index,
    registry: registry.entries,
    candidates,
    reviews: ledgers.findings,
    objectives,
    sources,
    diagnostics,
    async artifact(id) {
      if (!SAFE_ID.test(id)) return null;
      const file = artifactPath(id);
      const data = await files.read(file);
      if (data === null) return null;
      const fm = readFrontMatter(data, file);
      if (!fm.ok) {
        diagnostics.push(...fm.diagnostics.map(asWarning));
        return null;
      }
      return { file, data: fm.data, yaml: fm.yaml, yamlLine: fm.yamlLine };
    },
    async measurement(constraintId) {
      if (!SAFE_ID.test(constraintId)) return null;
      const file = measurementPath(constraintId);
      const t = await text(file);
      if (t === null) return null;
      const parsed = parseMeasurement(t, file);
      if (!parsed.ok) {
        diagnostics.push(...parsed.diagnostics.map(asWarning));
        return null;
      }
      return { file, text: t, value: parsed.measurement };
    },
  };
}

/** The 1-based line of `"<key>": <json value>` in pretty JSON text, or 1 (src/text-position.ts). */
export { jsonKeyLine } from '../../text-position.js';

export { keyLine };
