/** `findings init`: husky hook files, `.gitattributes` lines and the `.agents/` layout (docs/hooks.md). */
import { ExitCode } from '../../exit-codes.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import type { CommonOptions } from '../options.js';

export const run = defineCommand(
  'init',
  'Set up a repository: .husky/pre-commit, pre-merge-commit and pre-push (chaining hooks that ran before), .gitattributes lines, ' +
    'the empty .agents/ layout. Running it again changes nothing.',
  {
    root: 'git',
    action: async ({ io, repoRoot }: CommandContext<CommonOptions>) => {
      const root = await repoRoot();
      const { initRepository } = await import('../../../hooks/init.js');
      const result = await initRepository(root, io.env);
      for (const why of result.refused) io.stderr.write(`findings init: refusing to change anything: ${why}\n`);
      for (const s of result.steps) io.stdout.write(`${s.action.padEnd(9)} ${s.path}\n`);
      for (const line of result.lines) io.stdout.write(`${line}\n`);
      return result.refused.length > 0 ? ExitCode.Failed : ExitCode.Ok;
    },
  },
);
