/** `findings retire <id> [--superseded-by <id>]`: status retired, or superseded by an existing entry (docs/registry.md). */
import { hasErrors } from '../../diagnostics.js';
import { ExitCode } from '../../exit-codes.js';
import { retireEntries } from '../../registry/writer.js';
import type { CliIo } from '../io.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveRoot, type CommonOptions } from '../options.js';

interface RetireOptions extends CommonOptions {
  supersededBy?: string;
}

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand('retire', 'Retire a registry entry, or mark it superseded by another one.', io)
    .argument('<id>', 'finding id')
    .option('--superseded-by <id>', 'the replacement finding (must exist); sets status "superseded"');
  addRootOption(cmd);
  addFormatOptions(cmd, ['stylish', 'json']);
  cmd.action(async (id: string, opts: RetireOptions) => {
    const out = Output.from(io, opts, ['stylish', 'json']);
    const root = await resolveRoot(opts.root, io);
    const change = opts.supersededBy === undefined ? { id } : { id, supersededBy: opts.supersededBy };
    const { diagnostics } = await retireEntries(root, [change]);
    if (!hasErrors(diagnostics))
      out.info(
        opts.supersededBy === undefined ? `findings retire: ${id} retired` : `findings retire: ${id} superseded by ${opts.supersededBy}`,
      );
    await out.diagnostics(diagnostics);
    exit = hasErrors(diagnostics) ? ExitCode.Failed : ExitCode.Ok;
  });
  await parseArgs(cmd, args);
  return exit;
}
