/**
 * The review-ledger push gate, called by `findings hook pre-push` (contract: "Resolving findings":
 * "an unresolved finding blocks resubmission"). The task comes from the branch name
 * (`taskBranchPattern`, one capture group) or `Task: <id>` trailers on the pushed tip; the
 * ledger is read at the pushed commit, never the working tree.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { loadConfig } from '../config.js';
import { SAFE_ID } from '../layout.js';
import { commitBlobFiles, taskTrailers } from '../git-review.js';
import { readLedger, type ReviewFinding } from './ledger.js';
import { renderFinding, resolveCommand } from './render.js';

export interface PushGateInput {
  /** Repository root (absolute). */
  readonly root: string;
  /** Full sha of the pushed tip; the ledger is read at this commit. */
  readonly commit: string;
  /** Local ref being pushed, e.g. `refs/heads/feature/T-1`. */
  readonly localRef: string;
}

/** The task a branch name belongs to under `pattern` (first capture group), or null. Pure. */
export function taskFromBranch(localRef: string, pattern: string): string | null {
  const branch = localRef.replace(/^refs\/heads\//, '');
  if (branch === '' || branch === 'HEAD' || localRef.startsWith('refs/tags/')) return null;
  let m: RegExpExecArray | null;
  try {
    m = new RegExp(pattern).exec(branch);
  } catch {
    return null;
  }
  const task = m?.[1];
  return task !== undefined && SAFE_ID.test(task) ? task : null;
}

/** One error per open finding, at the line of its `filed` event, with the command that resolves it. */
export function openFindingDiagnostics(findings: readonly ReviewFinding[], context: string): Diagnostic[] {
  return findings
    .filter((f) => f.status === 'open')
    .map((f) =>
      diagnostic({
        file: f.ledgerFile,
        line: f.ledgerLine,
        ruleId: 'review/open-finding',
        message: `${context}: open ${f.origin} finding on task ${f.task}: ${renderFinding(f)}`,
        notes: [`resolve it: ${resolveCommand(f)}`],
      }),
    );
}

/** Diagnostics (errors block the push) for open findings of the task the pushed branch belongs to. */
export async function reviewPushGate(input: PushGateInput): Promise<Diagnostic[]> {
  const files = commitBlobFiles(input.root, input.commit);
  const { config } = await loadConfig(files);
  const tasks = new Set<string>();
  const fromBranch = taskFromBranch(input.localRef, config.taskBranchPattern);
  if (fromBranch !== null) tasks.add(fromBranch);
  for (const t of await taskTrailers(input.root, input.commit)) if (SAFE_ID.test(t)) tasks.add(t);
  const out: Diagnostic[] = [];
  for (const task of [...tasks].sort()) {
    const { findings, diagnostics } = await readLedger(files, task);
    // A ledger line that cannot be read could hide an open finding: report it (fail closed).
    out.push(...diagnostics);
    out.push(...openFindingDiagnostics(findings, 'push refused'));
  }
  return out;
}
