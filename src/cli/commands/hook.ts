/** `findings hook pre-commit|pre-merge-commit|pre-push`: what the one-line husky hook files call. */
import { ExitCode } from '../../exit-codes.js';
import type { HookOutcome } from '../../../hooks/outcome.js';
import { readStdin, type CliIo } from '../io.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveGitRoot, subCommand, type CommonOptions } from '../options.js';

const FORMATS = ['stylish', 'json', 'sarif', 'github'] as const;

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand('hook', 'Run a git hook: pre-commit, pre-merge-commit or pre-push.', io);
  const report = async (out: Output, outcome: HookOutcome): Promise<void> => {
    await out.diagnostics(outcome.diagnostics);
    for (const line of outcome.lines) out.info(line);
    exit = outcome.blocked ? ExitCode.Failed : ExitCode.Ok;
  };

  const preCommitCmd = subCommand(cmd, 'pre-commit', 'validate staged finding files, apply constraints to staged content, check compiled outputs', io);
  addRootOption(preCommitCmd);
  addFormatOptions(preCommitCmd, FORMATS);
  preCommitCmd.action(async (opts: CommonOptions) => {
    const out = Output.from(io, opts, FORMATS);
    const root = await resolveGitRoot(opts.root, io);
    const { preCommit } = await import('../../../hooks/pre-commit.js');
    await report(out, await preCommit(root, io.env));
  });

  const preMergeCmd = subCommand(cmd, 'pre-merge-commit', 'the pre-commit checks for a conflict-free git merge (only what the merge introduces blocks)', io);
  addRootOption(preMergeCmd);
  addFormatOptions(preMergeCmd, FORMATS);
  preMergeCmd.action(async (opts: CommonOptions) => {
    const out = Output.from(io, opts, FORMATS);
    const root = await resolveGitRoot(opts.root, io);
    const { preCommit } = await import('../../../hooks/pre-commit.js');
    await report(out, await preCommit(root, io.env, 'pre-merge-commit'));
  });

  const prePushCmd = subCommand(cmd, 'pre-push', "check each pushed range (git's pre-push lines on stdin)", io)
    .argument('[remote]', 'remote name (git passes it)')
    .argument('[url]', 'remote URL (git passes it)');
  addRootOption(prePushCmd);
  addFormatOptions(prePushCmd, FORMATS);
  prePushCmd.action(async (remote: string | undefined, _url: string | undefined, opts: CommonOptions) => {
    const out = Output.from(io, opts, FORMATS);
    const root = await resolveGitRoot(opts.root, io);
    const { prePush } = await import('../../../hooks/pre-push.js');
    await report(out, await prePush(root, io.env, remote ?? 'origin', await readStdin(io)));
  });

  await parseArgs(cmd, args);
  if (args.length === 0) {
    io.stderr.write(cmd.helpInformation());
    return ExitCode.Usage;
  }
  return exit;
}
