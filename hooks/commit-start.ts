/**
 * What a commit hook asks git first — the probe (top level, HEAD, operation) and the early reads
 * (staged diff, constraint index, config) — started by the launcher before it loads the hook's
 * code (bin/findings.js, docs/hooks.md "Speed"), so git runs while node reads and compiles the
 * bundle. Only for the plain command line husky writes (`findings hook
 * pre-commit`, no options) in a commit that is judged at all; anything else starts nothing here
 * and the hook asks git itself, as it always has.
 */
import path from 'node:path';
import { localRepository, type LocalRepository } from '../src/git/local-repository.js';
import { operationIn, probeRepository, type RepositoryProbe } from '../src/git/probe.js';
import { HEAD_COMMIT, startStagedReads, type EarlyReads } from './early-reads.js';
import { commitHookSkipped } from './skip.js';

// The launcher's second step, and the build's cache of it (scripts/hook-code-cache.cjs).
export { bundleFiles, cacheFileFor, loadHookBundle } from './bundle-loader.js';

/** Git work already under way for a commit hook run in `cwd`. */
export interface HookStart {
  readonly cwd: string;
  readonly probe: Promise<RepositoryProbe | null>;
  readonly early: EarlyReads;
}

/** Starts the probe and the early reads for `argv` when it is a plain commit-hook command line; else null. */
export function startCommitHook(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): HookStart | null {
  if (argv.length !== 2 || argv[0] !== 'hook' || (argv[1] !== 'pre-commit' && argv[1] !== 'pre-merge-commit')) return null;
  if (commitHookSkipped(env)) return null;
  const local = localRepository(cwd, env);
  const early = startStagedReads(cwd, local, env);
  return { cwd, early, probe: probeFrom(cwd, local, early) };
}

/**
 * The probe's answers: for an ordinary repository at `cwd` from its files and the early reads'
 * HEAD (no `rev-parse`: src/git/local-repository.ts), else from `git rev-parse`.
 */
async function probeFrom(cwd: string, local: LocalRepository | null, early: EarlyReads): Promise<RepositoryProbe | null> {
  if (local === null) return probeRepository(cwd);
  const meta = await early.meta;
  if (meta === null) return probeRepository(cwd);
  return {
    topLevel: local.topLevel,
    head: meta.get(HEAD_COMMIT)?.id ?? null,
    operation: operationIn(local.gitDir),
    objects: path.join(local.gitDir, 'objects'),
    prefix: '',
  };
}
