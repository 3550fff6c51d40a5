/** `findings doctor`: report what is missing or wrong in the set-up (docs/hooks.md); exit 1 when something is. */
import { hasErrors } from '../../diagnostics.js';
import { ExitCode } from '../../exit-codes.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import type { CommonOptions } from '../options.js';

export const run = defineCommand(
  'doctor',
  'Report missing or broken hooks, core.hooksPath pointing nowhere, missing .gitattributes lines, and a stale constraint index.',
  {
    root: 'git',
    formats: ['stylish', 'json'],
    action: async ({ io, out, repoRoot }: CommandContext<CommonOptions>) => {
      const root = await repoRoot();
      const { doctor } = await import('../../../hooks/doctor.js');
      const diagnostics = await doctor(root, io.env);
      await out.diagnostics(diagnostics);
      if (diagnostics.length === 0) out.info('findings doctor: hooks, attributes and compiled outputs look right');
      return hasErrors(diagnostics) ? ExitCode.Failed : ExitCode.Ok;
    },
  },
);
