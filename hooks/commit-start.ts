/**
 * What a commit hook asks git first — the probe (top level, HEAD, operation) and the early reads
 * (staged diff, constraint index, config) — started by the launcher before it loads the hook's
 * code (bin/findings.js, docs/hooks.md "Speed"), so the three git processes run while node reads
 * and compiles the bundle. Only for the plain command line husky writes (`findings hook
 * pre-commit`, no options) in a commit that is judged at all; anything else starts nothing here
 * and the hook asks git itself, as it always has.
 */
import { probeRepository, type RepositoryProbe } from '../src/git/probe.js';
import { startStagedReads, type EarlyReads } from './early-reads.js';
import { commitHookSkipped } from './skip.js';

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
  return { cwd, early: startStagedReads(cwd), probe: probeRepository(cwd) };
}
