/** `findings hook pre-commit|pre-merge-commit|pre-push`: what the one-line husky hook files call. */
import type { Command } from 'commander';
import { ExitCode } from '../../exit-codes.js';
import type { HookOutcome } from '../../../hooks/outcome.js';
import { readStdin, type CliIo } from '../io.js';
import { addWarningOptions, applyWarningOptions, type WarningOptions } from '../warnings.js';
import {
  addFormatOptions,
  addRootOption,
  baseCommand,
  Output,
  parseArgs,
  resolveGitRoot,
  subCommand,
  type CommonOptions,
} from '../options.js';

const FORMATS = ['stylish', 'json', 'sarif', 'github'] as const;

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand('hook', 'Run a git hook: pre-commit, pre-merge-commit or pre-push.', io);
  const report = async (out: Output, outcome: HookOutcome, opts: WarningOptions, root: string): Promise<void> => {
    const verdict = applyWarningOptions(outcome.diagnostics, opts);
    // SARIF rule metadata: the constraints as staged (what the commit, or the push after it, carries).
    const constraints = out.format === 'sarif' ? await (await import('../index-at.js')).constraintsAt(root, '') : [];
    await out.diagnostics(verdict.shown, { constraints });
    for (const line of outcome.lines) out.info(line);
    if (verdict.tooMany) out.warn(`findings: ${verdict.tooMany}`);
    exit = outcome.blocked || verdict.tooMany ? ExitCode.Failed : ExitCode.Ok;
  };
  /** Options every hook subcommand takes (husky's line may carry --quiet / --max-warnings). */
  const hookOptions = (sub: Command): Command => addWarningOptions(addFormatOptions(addRootOption(sub), FORMATS));

  const preCommitCmd = subCommand(
    cmd,
    'pre-commit',
    'validate staged finding files, apply constraints to staged content, check compiled outputs',
    io,
  );
  hookOptions(preCommitCmd);
  preCommitCmd.action(async (opts: CommonOptions & WarningOptions) => {
    const out = Output.from(io, opts, FORMATS);
    // Load the hook's modules while git finds the top level (docs/hooks.md "Speed").
    const [root, { preCommit }] = await Promise.all([resolveGitRoot(opts.root, io), import('../../../hooks/pre-commit.js')]);
    await report(out, await preCommit(root, io.env), opts, root);
  });

  const preMergeCmd = subCommand(
    cmd,
    'pre-merge-commit',
    'the pre-commit checks for a conflict-free git merge (only what the merge introduces blocks)',
    io,
  );
  hookOptions(preMergeCmd);
  preMergeCmd.action(async (opts: CommonOptions & WarningOptions) => {
    const out = Output.from(io, opts, FORMATS);
    const root = await resolveGitRoot(opts.root, io);
    const { preCommit } = await import('../../../hooks/pre-commit.js');
    await report(out, await preCommit(root, io.env, 'pre-merge-commit'), opts, root);
  });

  const prePushCmd = subCommand(cmd, 'pre-push', "check each pushed range (git's pre-push lines on stdin)", io)
    .argument('[remote]', 'remote name (git passes it)')
    .argument('[url]', 'remote URL (git passes it)');
  hookOptions(prePushCmd);
  prePushCmd.action(async (remote: string | undefined, _url: string | undefined, opts: CommonOptions & WarningOptions) => {
    const out = Output.from(io, opts, FORMATS);
    const root = await resolveGitRoot(opts.root, io);
    const { prePush } = await import('../../../hooks/pre-push.js');
    await report(out, await prePush(root, io.env, remote ?? 'origin', await readStdin(io)), opts, root);
  });

  await parseArgs(cmd, args);
  if (args.length === 0) {
    io.stderr.write(cmd.helpInformation());
    return ExitCode.Usage;
  }
  return exit;
}
