/**
 * `findings recur` I/O: read every review ledger and task file from the working tree, build the
 * candidates, write `.agents/findings/candidates.jsonl` only when its bytes change; `--promote`
 * hands a candidate's proposed entry to the registry writer (merge by dedup_key). A candidate
 * never blocks anything (docs/contracts/compiler.md#recurrence-producer-defects: always advisory).
 */
import { compareStrings, diagnostic, hasErrors, type Diagnostic } from '../diagnostics.js';
import { readIfExists } from '../fs/atomic.js';
import { repoTarget, writeRepoFileIfChanged } from '../fs/repo-write.js';
import { Layout } from '../layout.js';
import { addEntries, type AddResult } from '../registry/writer.js';
import { worktreeFiles } from '../repo-files.js';
import { readAllLedgers, readTaskChecked } from '../review/ledger.js';
import { buildCandidates, keptEntries, serializeCandidates, type Candidate } from './candidates.js';

export interface RecurResult {
  readonly candidates: Candidate[];
  readonly diagnostics: Diagnostic[];
  readonly state: 'created' | 'updated' | 'unchanged';
}

function candidatesFile(root: string): string {
  return repoTarget(root, Layout.candidates);
}

/** Problems in ledgers or task files do not stop recurrence: they are reported as warnings. */
const asWarning = (d: Diagnostic): Diagnostic => ({ ...d, severity: d.severity === 'error' ? 'warning' : d.severity });

/** Recomputes the candidates and writes candidates.jsonl when it changes. */
export async function runRecurrence(root: string): Promise<RecurResult> {
  const files = worktreeFiles(root);
  const { findings, diagnostics: ledgerDiagnostics } = await readAllLedgers(files);
  const diagnostics = ledgerDiagnostics.map(asWarning);
  const objectives = new Map<string, string>();
  for (const task of [...new Set(findings.map((f) => f.task))].sort(compareStrings)) {
    const t = await readTaskChecked(files, task);
    diagnostics.push(...t.diagnostics.map(asWarning));
    // A task's objective, or the task itself when it has none (or no readable task file).
    objectives.set(task, t.task?.objective ?? task);
  }
  const abs = candidatesFile(root);
  const current = await readIfExists(abs);
  const { kept, diagnostics: keptDiagnostics } = keptEntries(current === null ? '' : current.toString('utf8'));
  diagnostics.push(...keptDiagnostics);
  const candidates = buildCandidates(findings, (task) => objectives.get(task) ?? task, kept);
  const text = serializeCandidates(candidates);
  // No candidates and no file yet: nothing to write (recur never creates an empty file). A file
  // with lines recur cannot read is left as it is: rewriting it would drop them.
  const state =
    keptDiagnostics.length > 0 || (current === null && text === '')
      ? 'unchanged'
      : await writeRepoFileIfChanged(root, Layout.candidates, text);
  return { candidates, diagnostics, state };
}

export interface PromoteResult extends RecurResult {
  readonly promoted: Candidate | null;
  readonly added: AddResult | null;
}

/** Recomputes the candidates, then appends (or merges) one candidate's proposed entry into the registry. */
export async function promoteCandidate(root: string, classKey: string): Promise<PromoteResult> {
  const r = await runRecurrence(root);
  if (hasErrors(r.diagnostics)) return { ...r, promoted: null, added: null };
  const candidate = r.candidates.find((c) => c.class_key === classKey) ?? null;
  if (candidate === null) {
    const known = r.candidates.map((c) => c.class_key);
    const message = `no candidate with class_key "${classKey}"${known.length > 0 ? ` (candidates: ${known.join(', ')})` : ' (there are no candidates)'}`;
    return {
      ...r,
      diagnostics: [...r.diagnostics, diagnostic({ file: Layout.candidates, ruleId: 'recur/unknown-class', message })],
      promoted: null,
      added: null,
    };
  }
  const added = await addEntries(root, [candidate.proposed_entry], { source: Layout.candidates });
  return { ...r, diagnostics: [...r.diagnostics, ...added.diagnostics], promoted: candidate, added };
}
