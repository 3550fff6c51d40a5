/** `findings cite <id>…`: hit_count + 1 and last_cited = now for each id (docs/registry.md). */
import { hasErrors } from '../../diagnostics.js';
import { now, isoSeconds } from '../../clock.js';
import { ExitCode } from '../../exit-codes.js';
import { citeEntries } from '../../registry/writer.js';
import type { CliIo } from '../io.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveRoot, type CommonOptions } from '../options.js';

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand('cite', 'Record that findings were cited: increments hit_count and sets last_cited (UTC).', io).argument(
    '<ids...>',
    'finding ids',
  );
  addRootOption(cmd);
  addFormatOptions(cmd, ['stylish', 'json']);
  cmd.action(async (ids: string[], opts: CommonOptions) => {
    const out = Output.from(io, opts, ['stylish', 'json']);
    const root = await resolveRoot(opts.root, io);
    const at = now(io.env);
    const { diagnostics } = await citeEntries(root, ids, at);
    if (!hasErrors(diagnostics)) out.info(`findings cite: ${[...new Set(ids)].join(', ')} cited at ${isoSeconds(at)}`);
    await out.diagnostics(diagnostics);
    exit = hasErrors(diagnostics) ? ExitCode.Failed : ExitCode.Ok;
  });
  await parseArgs(cmd, args);
  return exit;
}
