/**
 * One staged snapshot per commit-hook run: HEAD and the operation in progress (from the
 * repository's files or one rev-parse: hooks/commit-start.ts), the staged changes with their
 * content (read from disk where verified, else one cat-file batch), the diff base, the constraint
 * index before and after and the config (one diff, one cat-file batch: hooks/sources.ts), and the
 * whole git index as a file source that lists once and never re-reads a blob the snapshot already
 * holds. Validation (steps 1–2), the gate (3) and the drift check (4) of hooks/pre-commit.ts all
 * read this one snapshot, so a plain commit starts two git processes, not five (docs/hooks.md "Speed").
 */
import { commitState, type CommitState } from '../src/git/probe.js';
import type { Operation } from '../src/git/hooks.js';
import { indexFiles, type RepoFiles } from '../src/repo-files.js';
import type { EarlyReads } from './early-reads.js';
import { collect, type Collected } from './sources.js';

export interface StagedSnapshot {
  /** HEAD's commit, or null before the first commit. */
  readonly head: string | null;
  /** The multi-step operation whose state files exist (merge, rebase, …), or null. */
  readonly operation: Operation | null;
  /** The staged changes, their content, the diff base, the constraint index texts and the config. */
  readonly collected: Collected;
  /** Every file of the git index (the staged tree), for the validators and the drift check. */
  readonly staged: RepoFiles;
}

/** What the CLI learnt while finding the root: HEAD and the operation, and the staged diff it started meanwhile. */
export interface Probed {
  readonly state: CommitState;
  readonly early?: EarlyReads;
}

/** `probed`: what the caller already asked git (the CLI does, finding the root); else one rev-parse here. */
export async function stagedSnapshot(root: string, probed?: Probed): Promise<StagedSnapshot> {
  const { head, operation, objects } = probed?.state ?? (await commitState(root));
  const known = { head, ...(objects === null ? {} : { objects }), ...(probed?.early ? { early: probed.early } : {}) };
  const collected = await collect(root, { kind: 'staged' }, known);
  return { head, operation, collected, staged: indexFiles(root, collected.files) };
}
