/** `findings hook pre-commit|pre-merge-commit|pre-push`: what the one-line husky hook files call. */
import type { Command } from 'commander';
import { ExitCode } from '../../exit-codes.js';
import { readStdin, type CliIo } from '../io.js';
import { addWarningOptions } from '../warnings.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveGitRoot, subCommand } from '../options.js';
import type { HookOptions } from '../commit-hook.js';

// The same list as HOOK_FORMATS (src/cli/commit-hook.ts), written out so that building this
// command does not load the commit hooks' modules.
const FORMATS = ['stylish', 'json', 'sarif', 'github'] as const;

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  /** Options every hook subcommand takes (husky's line may carry --quiet / --max-warnings). */
  const hookOptions = (sub: Command): Command => addWarningOptions(addFormatOptions(addRootOption(sub), FORMATS));

  const cmd = baseCommand('hook', 'Run a git hook: pre-commit, pre-merge-commit or pre-push.', io);
  const preCommitCmd = subCommand(
    cmd,
    'pre-commit',
    'validate staged finding files, apply constraints to staged content, check compiled outputs',
    io,
  );
  hookOptions(preCommitCmd);
  preCommitCmd.action(async (opts: HookOptions) => {
    exit = await (await import('../commit-hook.js')).runCommitHook('pre-commit', opts, io);
  });

  const preMergeCmd = subCommand(
    cmd,
    'pre-merge-commit',
    'the pre-commit checks for a conflict-free git merge (only what the merge introduces blocks)',
    io,
  );
  hookOptions(preMergeCmd);
  preMergeCmd.action(async (opts: HookOptions) => {
    exit = await (await import('../commit-hook.js')).runCommitHook('pre-merge-commit', opts, io);
  });

  const prePushCmd = subCommand(cmd, 'pre-push', "check each pushed range (git's pre-push lines on stdin)", io)
    .argument('[remote]', 'remote name (git passes it)')
    .argument('[url]', 'remote URL (git passes it)');
  hookOptions(prePushCmd);
  prePushCmd.action(async (remote: string | undefined, _url: string | undefined, opts: HookOptions) => {
    const out = Output.from(io, opts, FORMATS);
    const root = await resolveGitRoot(opts.root, io);
    const [{ prePush }, { reportHook }] = await Promise.all([import('../../../hooks/pre-push.js'), import('../commit-hook.js')]);
    exit = await reportHook(out, await prePush(root, io.env, remote ?? 'origin', await readStdin(io)), opts, root);
  });

  await parseArgs(cmd, args);
  if (args.length === 0) {
    io.stderr.write(cmd.helpInformation());
    return ExitCode.Usage;
  }
  return exit;
}
