/**
 * The reads every staged check starts with — the staged diff, and the constraint index and config
 * as staged and at HEAD — started before anything else is known (docs/hooks.md "Speed"): by the
 * launcher before it loads the hook's code, or by the CLI while it probes for the root, so git
 * works while node compiles. Imports nothing but the git runner, so loading it costs nothing.
 */
import { git, parseCatFileObjects, runGit, type BatchObject } from '../src/git/core.js';
import { Layout } from '../src/layout.js';

export const RAW_DIFF = ['--raw', '-z', '-M', '--no-abbrev', '--no-ext-diff'] as const;

/** The constraint index and config as staged: what every staged check reads besides the blobs. */
export const STAGED_META = [`:${Layout.constraintIndex}`, `:${Layout.config}`] as const;
/** The constraint index at HEAD (the "before" of the stricter-of judgment, hooks/judgment.ts). */
export const HEAD_INDEX = `HEAD:${Layout.constraintIndex}`;
/** HEAD's commit: the batch's header names it, so no `rev-parse` is needed for it (hooks/commit-start.ts). */
export const HEAD_COMMIT = 'HEAD^{commit}';
const META = [...STAGED_META, HEAD_INDEX, HEAD_COMMIT];

/** Reads of a staged check started before the root and HEAD were known. */
export interface EarlyReads {
  /** The folder git ran in. */
  readonly cwd: string;
  /** The staged diff's output, or null when git failed (the caller then asks again, as without it). */
  readonly diff: Promise<Buffer | null>;
  /** STAGED_META, HEAD_INDEX and HEAD_COMMIT read by name (null: absent), or null when git failed (then read again). */
  readonly meta: Promise<Map<string, BatchObject | null> | null>;
}

/**
 * Starts `git diff --cached` and the cat-file for the constraint index and config in `cwd`.
 * Without a commit argument git compares with HEAD, or on an unborn branch shows every staged
 * file as added: the same as naming HEAD's commit or the empty tree, as collect does once it
 * knows HEAD. `:<path>` and `HEAD:<path>` name paths from the top level wherever git runs.
 */
export function startStagedReads(cwd: string): EarlyReads {
  const diff = runGit(cwd, ['diff', '--cached', ...RAW_DIFF]).then(
    (r) => (r.code === 0 ? r.stdout : null),
    () => null,
  );
  const meta = git(cwd, ['cat-file', '--batch'], { input: `${META.join('\n')}\n` }).then(
    (out) => parseCatFileObjects(out, META),
    () => null,
  );
  return { cwd, diff, meta };
}
