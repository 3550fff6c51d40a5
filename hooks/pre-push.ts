/**
 * `findings hook pre-push [remote] [url]` (issue 4): git writes one line per pushed ref on
 * standard input (`<local ref> <local sha> <remote ref> <remote sha>`, githooks(5)). For each:
 * deletions are skipped; the constraint gate runs over the files changed in the pushed range
 * (a new branch is compared with the remote's default branch, or failing that all its files are
 * checked); the compiled outputs must be current at the pushed commit; the review-ledger
 * gate (issue 5) has its say; and the review ledgers, tasks and roles the push changes are
 * validated at the pushed commit, authorship included ("the real guard", issue 5).
 */
import { diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { isAncestor, mergeBase, objectExists, remoteDefaultBranch } from '../src/git-hooks.js';
import { NULL_SHA, rangeChanges, treeEntries } from '../src/git.js';
import { Layout } from '../src/layout.js';
import { commitFiles } from '../src/repo-files.js';
import { appendOnlyViolations } from '../src/review/append-only.js';
import { classifyPath, validateFiles } from '../src/validate/index.js';
import { checkConstraints, parseSkip } from './check.js';
import { compiledDrift, FIX_COMMAND } from './compiler-link.js';
import { finish, type HookOutcome } from './outcome.js';
import { isFindingSource } from './pre-commit.js';
import type { CheckMode } from './sources.js';

export interface PushUpdate {
  readonly localRef: string;
  readonly localSha: string;
  readonly remoteRef: string;
  readonly remoteSha: string;
}

/** Parses git's pre-push standard input; malformed lines are ignored. Pure. */
export function parsePushLines(text: string): PushUpdate[] {
  const out: PushUpdate[] = [];
  for (const line of text.split('\n')) {
    const parts = line.trim().split(/\s+/);
    if (parts.length !== 4) continue;
    const [localRef, localSha, remoteRef, remoteSha] = parts as [string, string, string, string];
    if (!/^[0-9a-f]{40,64}$/.test(localSha) || !/^[0-9a-f]{40,64}$/.test(remoteSha)) continue;
    out.push({ localRef, localSha, remoteRef, remoteSha });
  }
  return out;
}

export const PUSH_BYPASS = 'git push --no-verify';

const isNull = (sha: string): boolean => /^0+$/.test(sha) || sha === NULL_SHA;

/** Which files a pushed ref is judged by (range, or the whole tree for a base-less new branch). */
export async function pushMode(root: string, remote: string, u: PushUpdate): Promise<CheckMode> {
  const known = !isNull(u.remoteSha) && (await objectExists(root, u.remoteSha));
  if (known && (await isAncestor(root, u.remoteSha, u.localSha))) return { kind: 'range', from: u.remoteSha, to: u.localSha };
  // A new branch, or a rewritten one (rebase + force push): the old tip is no base, since what a
  // rebase brought in from the default branch is not this branch's change. Compare with the
  // remote's default branch, else with the last history the old and new tips share.
  const def = await remoteDefaultBranch(root, remote);
  const base = (def === null ? null : await mergeBase(root, def, u.localSha)) ?? (known ? await mergeBase(root, u.remoteSha, u.localSha) : null);
  return base === null ? { kind: 'tree', commit: u.localSha } : { kind: 'range', from: base, to: u.localSha };
}

export async function prePush(root: string, env: NodeJS.ProcessEnv, remote: string, stdinText: string): Promise<HookOutcome> {
  const skip = parseSkip(env);
  if (skip.all || env['HUSKY'] === '0') {
    return { diagnostics: [], lines: [`findings: pre-push checks skipped (${skip.all ? 'FINDINGS_SKIP=all' : 'HUSKY=0'})`], blocked: false };
  }
  const diagnostics: Diagnostic[] = [];
  const lines: string[] = [];
  const done = new Set<string>();
  for (const u of parsePushLines(stdinText)) {
    if (isNull(u.localSha)) continue; // a deletion pushes no content
    const key = `${u.localSha} ${u.localRef}`;
    if (done.has(key)) continue;
    done.add(key);
    const mode = await pushMode(root, remote, u);
    const check = await checkConstraints(root, mode, { skip: skip.ids, bypass: PUSH_BYPASS });
    lines.push(...check.lines);
    if (check.status === 'no-index') lines.push(`findings: ${u.localRef}: no constraint index at ${u.localSha.slice(0, 12)}; no constraints to check`);
    diagnostics.push(...check.diagnostics);
    diagnostics.push(...(await driftAt(root, u.localSha)));
    const { reviewPushGate } = await import('../src/review/gate.js');
    diagnostics.push(...(await reviewPushGate({ root, commit: u.localSha, localRef: u.localRef })));
    diagnostics.push(...(await reviewFilesAt(root, mode, u.localSha)));
  }
  return finish(diagnostics, lines);
}

const REVIEW_KINDS = new Set(['review-ledger', 'task', 'roles']);

/**
 * `findings validate` on the review ledgers, tasks and roles that the pushed range changes (all
 * of them for a base-less branch), at the pushed commit: a waiver or CEO line slipped into a
 * ledger by someone without the role is refused here, before it reaches the remote.
 */
async function reviewFilesAt(root: string, mode: CheckMode, sha: string): Promise<Diagnostic[]> {
  const candidates =
    mode.kind === 'range'
      ? (await rangeChanges(root, mode.from, mode.to)).filter((c) => c.status !== 'D').map((c) => c.path)
      : (await treeEntries(root, sha, [Layout.agentsDir])).map((e) => e.path);
  const paths = candidates.filter((p) => p.startsWith(`${Layout.agentsDir}/`) && REVIEW_KINDS.has(classifyPath(p) ?? ''));
  const out = paths.length === 0 ? [] : await validateFiles(paths, { root, files: commitFiles(root, sha), commit: sha });
  if (mode.kind === 'range') out.push(...(await appendOnlyViolations(commitFiles(root, mode.from), commitFiles(root, sha), `${mode.from.slice(0, 12)}`)));
  return out;
}

/** `findings compile --check` at a commit — when it has finding sources at all (an empty layout has nothing to compile). */
async function driftAt(root: string, sha: string): Promise<Diagnostic[]> {
  const sources = await treeEntries(root, sha, [Layout.findingsDir, Layout.fixturesDir]);
  if (!sources.some((e) => isFindingSource(e.path))) return [];
  const result = await compiledDrift(commitFiles(root, sha));
  const notes = [`fix: ${FIX_COMMAND} && git commit`, `bypass: ${PUSH_BYPASS}`];
  return [
    ...result.diagnostics,
    ...result.drift.map((d) =>
      diagnostic({ file: d.path, ruleId: 'compile/drift', message: `compiled output is ${d.kind} at the pushed commit ${sha.slice(0, 12)}`, notes }),
    ),
  ];
}
