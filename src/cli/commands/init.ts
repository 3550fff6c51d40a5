/** `findings init`: husky hook files, `.gitattributes` lines and the `.agents/` layout (docs/hooks.md). */
import { ExitCode } from '../../exit-codes.js';
import type { CliIo } from '../io.js';
import { addRootOption, baseCommand, parseArgs, resolveGitRoot, type CommonOptions } from '../options.js';

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand(
    'init',
    'Set up a repository: .husky/pre-commit, pre-merge-commit and pre-push (chaining hooks that ' +
      'ran before), .gitattributes lines, the empty .agents/ layout. Running it again changes nothing.',
    io,
  );
  addRootOption(cmd);
  cmd.action(async (opts: CommonOptions) => {
    const root = await resolveGitRoot(opts.root, io);
    const { initRepository } = await import('../../../hooks/init.js');
    const result = await initRepository(root, io.env);
    for (const why of result.refused) io.stderr.write(`findings init: refusing to change anything: ${why}\n`);
    if (result.refused.length > 0) exit = ExitCode.Failed;
    for (const s of result.steps) io.stdout.write(`${s.action.padEnd(9)} ${s.path}\n`);
    for (const line of result.lines) io.stdout.write(`${line}\n`);
  });
  await parseArgs(cmd, args);
  return exit;
}
