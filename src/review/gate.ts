/**
 * The review-ledger push gate, called by `findings hook pre-push` (contract: "Resolving findings":
 * "an unresolved finding blocks resubmission"). Every name a push carries is a task: the local
 * ref, the remote ref (`git push origin HEAD:T-1`, `wip:T-1`) under `taskBranchPattern` (one
 * capture group), and `Task: <id>` trailers on every commit of the range. The pattern is read
 * at the remote side of the range, so a push cannot switch its own gate off (docs/hooks.md,
 * "What a change can and cannot do to its own judgment"); the ledger is read at the pushed
 * commit, never the working tree.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { DEFAULT_CONFIG, loadConfig } from '../config.js';
import { SAFE_ID } from '../layout.js';
import { commitBlobFiles, taskTrailers, taskTrailersInRange } from '../git/review.js';
import { readLedger, type ReviewFinding } from './ledger.js';
import { renderFinding, resolveCommand } from './render.js';

export interface PushGateInput {
  /** Repository root (absolute). */
  readonly root: string;
  /** Full sha of the pushed tip; the ledger is read at this commit. */
  readonly commit: string;
  /** Local ref being pushed, e.g. `refs/heads/feature/T-1` (or `HEAD`, or a sha). */
  readonly localRef: string;
  /** The ref the push updates on the remote, e.g. `refs/heads/T-1`. */
  readonly remoteRef?: string;
  /**
   * The remote side of the pushed range: `.agents/config.json` is read there and trailers are
   * collected from `base..commit`. null: there is no remote side (the default config; every
   * ancestor's trailers). Omitted: a standalone check of `commit` (its own config, its own trailers).
   */
  readonly base?: string | null;
}

/** The task a branch name belongs to under `pattern` (first capture group), or null. Pure. */
export function taskFromBranch(localRef: string, pattern: string): string | null {
  const branch = localRef.replace(/^refs\/heads\//, '');
  // `HEAD` and a bare sha (`git push origin <sha>:T-1`) name no branch; the remote ref does.
  if (branch === '' || branch === 'HEAD' || /^[0-9a-f]{40,64}$/.test(branch) || /^refs\/(?!heads\/)/.test(localRef)) return null;
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

/** Diagnostics (errors block the push) for open findings of every task the push names. */
export async function reviewPushGate(input: PushGateInput): Promise<Diagnostic[]> {
  const files = commitBlobFiles(input.root, input.commit);
  const out: Diagnostic[] = [];
  let pattern = DEFAULT_CONFIG.taskBranchPattern;
  if (input.base === undefined) pattern = (await loadConfig(files)).config.taskBranchPattern;
  else if (input.base !== null) {
    const at = await loadConfig(commitBlobFiles(input.root, input.base));
    pattern = at.config.taskBranchPattern;
    const where = `read at the remote side of the push (${input.base.slice(0, 12)}); a change to it in this push counts from the next push`;
    out.push(...at.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ ...d, notes: [...(d.notes ?? []), where] })));
  }
  const tasks = new Set<string>();
  for (const ref of [input.localRef, input.remoteRef ?? '']) {
    const task = taskFromBranch(ref, pattern);
    if (task !== null) tasks.add(task);
  }
  const trailers =
    input.base === undefined
      ? await taskTrailers(input.root, input.commit)
      : await taskTrailersInRange(input.root, input.base, input.commit);
  for (const t of trailers) if (SAFE_ID.test(t)) tasks.add(t);
  for (const task of [...tasks].sort()) {
    const { findings, diagnostics } = await readLedger(files, task);
    // A ledger line that cannot be read could hide an open finding: report it (fail closed).
    out.push(...diagnostics);
    out.push(...openFindingDiagnostics(findings, 'push refused'));
  }
  return out;
}
