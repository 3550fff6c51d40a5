/** `findings cite <id>…`: hit_count + 1 and last_cited = now for each id (docs/registry.md). */
import { isoSeconds, now } from '../../clock.js';
import { hasErrors } from '../../diagnostics.js';
import { ExitCode } from '../../exit-codes.js';
import { citeEntries } from '../../registry/writer.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import type { CommonOptions } from '../options.js';

export const run = defineCommand('cite', 'Record that findings were cited: increments hit_count and sets last_cited (UTC).', {
  declare: (cmd) => cmd.argument('<ids...>', 'finding ids'),
  root: 'any',
  formats: ['stylish', 'json'],
  action: async ({ io, out, repoRoot }: CommandContext<CommonOptions>, ids: string[]) => {
    const root = await repoRoot();
    const at = now(io.env);
    const { diagnostics } = await citeEntries(root, ids, at);
    if (!hasErrors(diagnostics)) out.info(`findings cite: ${[...new Set(ids)].join(', ')} cited at ${isoSeconds(at)}`);
    await out.diagnostics(diagnostics);
    return hasErrors(diagnostics) ? ExitCode.Failed : ExitCode.Ok;
  },
});
