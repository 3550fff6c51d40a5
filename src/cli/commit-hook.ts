/**
 * `findings hook pre-commit|pre-merge-commit` from parsed options to an exit code. The commander
 * command (src/cli/commands/hook.ts) and the launcher's fast path (src/cli/hook-entry.ts) both
 * call this, so the two judge and report exactly alike.
 */
import path from 'node:path';
import { ExitCode, UsageError } from '../exit-codes.js';
import { probeRepository, type CommitState, type RepositoryProbe } from '../git/probe.js';
import { knowPrefix } from '../git/project-root.js';
import { commitHookSkipped } from '../../hooks/skip.js';
import { preCommit, type CommitHook } from '../../hooks/pre-commit.js';
import { startStagedReads } from '../../hooks/early-reads.js';
import type { HookOutcome } from '../../hooks/outcome.js';
import type { HookStart } from '../../hooks/commit-start.js';
import type { CliIo } from './io.js';
import { Output, rootDirectory, type CommonOptions } from './options.js';
import { applyWarningOptions, type WarningOptions } from './warnings.js';

export const HOOK_FORMATS = ['stylish', 'json', 'sarif', 'github'] as const;

export type HookOptions = CommonOptions & WarningOptions;

/**
 * The hook's root (`--root`, else the top level of cwd) and the commit state, from one git
 * process (src/git/probe.ts): the same answers and errors as resolveGitRoot (src/cli/options.ts).
 */
export async function probeRoot(
  rootOption: string | undefined,
  io: CliIo,
  started?: Promise<RepositoryProbe | null>,
): Promise<{ root: string; state: CommitState }> {
  if (rootOption === undefined) {
    const found = await (started ?? probeRepository(io.cwd));
    if (found === null) throw new UsageError(`${io.cwd}: not a git repository (run \`git init\` first)`);
    // git runs hooks at the top level: that is the project root unless --root names another (src/git/project-root.ts).
    knowPrefix(found.topLevel, '');
    return { root: found.topLevel, state: found };
  }
  const root = rootDirectory(rootOption, io);
  const found = await probeRepository(root);
  if (found === null) throw new UsageError(`${rootOption}: not a git repository (run \`git init\` first)`);
  if (found.prefix !== null) knowPrefix(root, found.prefix);
  return { root, state: found };
}

/** Prints a hook's outcome in the chosen format and returns the exit code (1: blocked, or too many warnings). */
export async function reportHook(out: Output, outcome: HookOutcome, opts: WarningOptions, root: string): Promise<ExitCode> {
  const verdict = applyWarningOptions(outcome.diagnostics, opts);
  // SARIF rule metadata: the constraints as staged (what the commit, or the push after it, carries).
  const constraints = out.format === 'sarif' ? await (await import('./index-at.js')).constraintsAt(root, '') : [];
  await out.diagnostics(verdict.shown, { constraints });
  for (const line of outcome.lines) out.info(line);
  if (verdict.tooMany) out.warn(`findings: ${verdict.tooMany}`);
  return outcome.blocked || verdict.tooMany ? ExitCode.Failed : ExitCode.Ok;
}

/**
 * Runs a commit hook with its options already parsed. `started`: the launcher's git work for
 * this very run (hooks/commit-start.ts), used when it ran where the hook runs.
 */
export async function runCommitHook(hook: CommitHook, opts: HookOptions, io: CliIo, started?: HookStart | null): Promise<ExitCode> {
  const out = Output.from(io, opts, HOOK_FORMATS);
  const begun = started && opts.root === undefined && started.cwd === io.cwd ? started : null;
  // The staged diff and settings are read while the probe finds the root (git runs hooks at the
  // top level, so they usually ran there; elsewhere collect asks again). Skipped runs never need them.
  const early = commitHookSkipped(io.env)
    ? undefined
    : (begun?.early ?? startStagedReads(opts.root === undefined ? io.cwd : path.resolve(io.cwd, opts.root)));
  const { root, state } = await probeRoot(opts.root, io, begun?.probe);
  return reportHook(out, await preCommit(root, io.env, hook, { state, ...(early ? { early } : {}) }), opts, root);
}
