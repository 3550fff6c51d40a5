/**
 * The reads every staged check starts with — the staged diff, and the constraint index and config
 * as staged and at HEAD — started before anything else is known (docs/hooks.md "Speed"): by the
 * launcher before it loads the hook's code, or by the CLI while it probes for the root, so git
 * works while node compiles. Imports only the git runner and the readers of git's own files
 * (hooks/local-meta.ts), which load no builtin the launcher does not already have.
 */
import { git, parseCatFileObjects, RAW_DIFF_ARGS, runGit, type BatchObject } from '../src/git/core.js';
import type { LocalRepository } from '../src/git/local-repository.js';
import { Layout } from '../src/layout.js';
import { stagedFromFiles, withStagedDiff, type StagedFromFiles } from './local-meta.js';

/** The constraint files (index.json, extended.json) and config as staged: what every staged check reads besides the blobs. */
export const STAGED_META = [`:${Layout.constraintIndex}`, `:${Layout.config}`, `:${Layout.extendedIndex}`] as const;
/** The constraint files at HEAD (the "before" of the stricter-of judgment, hooks/judgment.ts). */
export const HEAD_INDEX = `HEAD:${Layout.constraintIndex}`;
export const HEAD_EXTENDED = `HEAD:${Layout.extendedIndex}`;
/** HEAD's commit: the batch's header names it, so no `rev-parse` is needed for it (hooks/commit-start.ts). */
export const HEAD_COMMIT = 'HEAD^{commit}';
const META = [...STAGED_META, HEAD_INDEX, HEAD_EXTENDED, HEAD_COMMIT];

/** Reads of a staged check started before the root and HEAD were known. */
export interface EarlyReads {
  /** The folder git ran in. */
  readonly cwd: string;
  /** The staged diff's output, or null when git failed (the caller then asks again, as without it). */
  readonly diff: Promise<Buffer | null>;
  /** STAGED_META, HEAD_INDEX, HEAD_EXTENDED and HEAD_COMMIT read by name (null: absent), or null when git failed (then read again). */
  readonly meta: Promise<Map<string, BatchObject | null> | null>;
}

/**
 * Starts `git diff --cached` and the cat-file for the constraint index and config in `cwd`.
 * Without a commit argument git compares with HEAD, or on an unborn branch shows every staged
 * file as added: the same as naming HEAD's commit or the empty tree, as collect does once it
 * knows HEAD. `:<path>` and `HEAD:<path>` name paths from the top level wherever git runs.
 * In an ordinary repository at `cwd` (`local`), the repository's files answer instead of the
 * cat-file where they can, read while git computes the diff (hooks/local-meta.ts): one git
 * process, not two.
 */
export function startStagedReads(cwd: string, local: LocalRepository | null = null, env: NodeJS.ProcessEnv = process.env): EarlyReads {
  const diff = runGit(cwd, ['diff', '--cached', ...RAW_DIFF_ARGS]).then(
    (r) => (r.code === 0 ? r.stdout : null),
    () => null,
  );
  if (local === null) return { cwd, diff, meta: catFileMeta(cwd) };
  // Read now, while git computes the diff; what needs the diff waits for it.
  const files = attempt(() => stagedFromFiles(local, env));
  const meta = diff.then((out) => (out === null || files === null ? null : fromFiles(files, out)) ?? catFileMeta(cwd));
  return { cwd, diff, meta };
}

/** `read()`, or null when it throws: a file it did not expect, and git answers, as without it. */
function attempt<T>(read: () => T | null): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/**
 * `:./<path>` and `HEAD:./<path>`: git takes a path after `./` from the folder it runs in, the
 * project root, which may lie below the top level (src/git/project-root.ts); the root's prefix is
 * not known yet when the early reads start. Only a work tree has such a folder, as a commit has.
 */
const FROM_ROOT = META.map((name) => name.replace(':', ':./'));

function catFileMeta(cwd: string): Promise<Map<string, BatchObject | null> | null> {
  return git(cwd, ['cat-file', '--batch'], { input: `${FROM_ROOT.join('\n')}\n` }).then(
    (out) => {
      const read = parseCatFileObjects(out, FROM_ROOT);
      return new Map(META.map((name, i) => [name, read.get(FROM_ROOT[i]!) ?? null]));
    },
    () => null,
  );
}

function fromFiles(files: StagedFromFiles, diff: Buffer): Map<string, BatchObject | null> | null {
  const answers = attempt(() => withStagedDiff(files, diff));
  if (answers === null) return null;
  return new Map([
    [STAGED_META[0], answers.stagedIndex],
    [STAGED_META[1], answers.stagedConfig],
    [STAGED_META[2], answers.stagedExtended],
    [HEAD_INDEX, answers.headIndex],
    [HEAD_EXTENDED, answers.headExtended],
    [HEAD_COMMIT, answers.headCommit],
  ]);
}
