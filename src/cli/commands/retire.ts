/** `findings retire <id> [--superseded-by <id>]`: status retired, or superseded by an existing entry (docs/registry.md). */
import { hasErrors } from '../../diagnostics.js';
import { ExitCode } from '../../exit-codes.js';
import { retireEntries } from '../../registry/writer.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import type { CommonOptions } from '../options.js';

interface RetireOptions extends CommonOptions {
  supersededBy?: string;
}

export const run = defineCommand('retire', 'Retire a registry entry, or mark it superseded by another one.', {
  declare: (cmd) =>
    cmd.argument('<id>', 'finding id').option('--superseded-by <id>', 'the replacement finding (must exist); sets status "superseded"'),
  root: 'any',
  formats: ['stylish', 'json'],
  action: async ({ opts, out, repoRoot }: CommandContext<RetireOptions>, id: string) => {
    const root = await repoRoot();
    const change = opts.supersededBy === undefined ? { id } : { id, supersededBy: opts.supersededBy };
    const { diagnostics } = await retireEntries(root, [change]);
    if (!hasErrors(diagnostics))
      out.info(
        opts.supersededBy === undefined ? `findings retire: ${id} retired` : `findings retire: ${id} superseded by ${opts.supersededBy}`,
      );
    await out.diagnostics(diagnostics);
    return hasErrors(diagnostics) ? ExitCode.Failed : ExitCode.Ok;
  },
});
