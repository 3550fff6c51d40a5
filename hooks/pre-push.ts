/**
 * `findings hook pre-push [remote] [url]` (docs/hooks.md): git writes one line per pushed ref on
 * standard input (`<local ref> <local sha> <remote ref> <remote sha>`, githooks(5)). For each:
 * deletions are skipped; the constraint gate runs over the files changed in the pushed range
 * (a new branch is compared with the remote's default branch, or failing that all its files are
 * checked); the compiled outputs must be current at the pushed commit; the review-ledger
 * gate has its say for every task the push names; and the registry, artifacts, config, review
 * ledgers, tasks and roles the push changes are validated at the pushed commit, authorship
 * included. The gate's own settings (`.agents/config.json`, `roles.json`) are read at the remote
 * side of the range, so a push cannot loosen its own judgment (docs/hooks.md).
 */
import { diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { isAncestor, mergeBase, objectExists, remoteDefaultBranch } from '../src/git/hooks.js';
import { NULL_SHA, rangeChanges, treeEntries } from '../src/git/core.js';
import { Layout } from '../src/layout.js';
import { commitFiles } from '../src/repo-files.js';
import { appendOnlyViolations } from '../src/review/append-only.js';
import { classifyPath, validateFiles } from '../src/validate/index.js';
import { checkConstraints } from './check.js';
import { parseSkip } from './skip.js';
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
  const base =
    (def === null ? null : await mergeBase(root, def, u.localSha)) ?? (known ? await mergeBase(root, u.remoteSha, u.localSha) : null);
  return base === null ? { kind: 'tree', commit: u.localSha } : { kind: 'range', from: base, to: u.localSha };
}

export async function prePush(root: string, env: NodeJS.ProcessEnv, remote: string, stdinText: string): Promise<HookOutcome> {
  const skip = parseSkip(env);
  if (skip.all || env['HUSKY'] === '0') {
    return {
      diagnostics: [],
      lines: [`findings: pre-push checks skipped (${skip.all ? 'FINDINGS_SKIP=all' : 'HUSKY=0'})`],
      blocked: false,
    };
  }
  const diagnostics: Diagnostic[] = [];
  const lines: string[] = [];
  const done = new Set<string>();
  for (const u of parsePushLines(stdinText)) {
    if (isNull(u.localSha)) continue; // a deletion pushes no content
    // `git push origin HEAD:T-1 HEAD:T-2` pushes one commit under two names: each name is judged.
    const key = `${u.localSha} ${u.localRef} ${u.remoteRef}`;
    if (done.has(key)) continue;
    done.add(key);
    const mode = await pushMode(root, remote, u);
    const check = await checkConstraints(root, mode, { skip: skip.ids, bypass: PUSH_BYPASS });
    lines.push(...check.lines);
    if (check.status === 'no-index')
      lines.push(`findings: ${u.localRef}: no constraint index at ${u.localSha.slice(0, 12)}; no constraints to check`);
    diagnostics.push(...check.diagnostics);
    diagnostics.push(...(await driftAt(root, u.localSha)));
    const base = remoteSide(mode);
    const { reviewPushGate } = await import('../src/review/gate.js');
    diagnostics.push(...(await reviewPushGate({ root, commit: u.localSha, localRef: u.localRef, remoteRef: u.remoteRef, base })));
    diagnostics.push(...(await pushedFilesAt(root, mode, u.localSha)));
  }
  // One commit pushed under several names is checked once per name: report each problem once.
  const seen = new Set<string>();
  const unique = diagnostics.filter((d) => {
    const k = JSON.stringify(d);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return finish(unique, lines);
}

/** The remote side of a pushed range (where the gate's own settings are read), or null when there is none. Pure. */
export function remoteSide(mode: CheckMode): string | null {
  return mode.kind === 'range' ? mode.from : null;
}

/** The kinds of `.agents/` files a push is validated on (docs/hooks.md, pre-push). */
const PUSH_VALIDATED_KINDS = new Set(['registry', 'artifact', 'config', 'review-ledger', 'task', 'roles']);

/** True for the `.agents/` files a push is validated on; review notes (`reviews/*.md`) are generated, not artifacts. Pure. */
export function pushValidated(p: string): boolean {
  const kind = classifyPath(p) ?? '';
  if (kind === 'artifact') return p.startsWith(`${Layout.findingsDir}/`);
  return p.startsWith(`${Layout.agentsDir}/`) && PUSH_VALIDATED_KINDS.has(kind);
}

/**
 * `findings validate` on the registry, artifacts, config, review ledgers, tasks and roles that the
 * pushed range changes (all of them for a base-less branch), at the pushed commit: a duplicate
 * `dedup_key` left by a clean `merge=union`, or a waiver or CEO line slipped into a ledger by
 * someone without the role, is refused here, before it reaches the remote. Roles granted inside
 * the range do not count for the range's own lines (src/review/push-roles.ts).
 */
async function pushedFilesAt(root: string, mode: CheckMode, sha: string): Promise<Diagnostic[]> {
  const candidates =
    mode.kind === 'range'
      ? (await rangeChanges(root, mode.from, mode.to)).filter((c) => c.status !== 'D').map((c) => c.path)
      : (await treeEntries(root, sha, [Layout.agentsDir])).map((e) => e.path);
  const paths = candidates.filter(pushValidated);
  const out = paths.length === 0 ? [] : await validateFiles(paths, { root, files: commitFiles(root, sha), commit: sha });
  const ledgers = paths.filter((p) => classifyPath(p) === 'review-ledger');
  if (ledgers.length > 0) {
    const { rolesGrantedInPush } = await import('../src/review/push-roles.js');
    out.push(...(await rolesGrantedInPush(root, remoteSide(mode), sha, ledgers)));
  }
  if (mode.kind === 'range')
    out.push(...(await appendOnlyViolations(commitFiles(root, mode.from), commitFiles(root, sha), `${mode.from.slice(0, 12)}`)));
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
      diagnostic({
        file: d.path,
        ruleId: 'compiler/drift',
        message: `compiled output is ${d.kind} at the pushed commit ${sha.slice(0, 12)}`,
        notes,
      }),
    ),
  ];
}
