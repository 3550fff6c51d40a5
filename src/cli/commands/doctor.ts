/** `findings doctor`: report what is missing or wrong in the set-up (docs/hooks.md); exit 1 when something is. */
import { hasErrors } from '../../diagnostics.js';
import { ExitCode } from '../../exit-codes.js';
import type { CliIo } from '../io.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveGitRoot, type CommonOptions } from '../options.js';

const FORMATS = ['stylish', 'json'] as const;

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand(
    'doctor',
    'Report missing or broken hooks, core.hooksPath pointing nowhere, missing .gitattributes lines, and a stale constraint index.',
    io,
  );
  addRootOption(cmd);
  addFormatOptions(cmd, FORMATS);
  cmd.action(async (opts: CommonOptions) => {
    const out = Output.from(io, opts, FORMATS);
    const root = await resolveGitRoot(opts.root, io);
    const { doctor } = await import('../../../hooks/doctor.js');
    const diagnostics = await doctor(root, io.env);
    await out.diagnostics(diagnostics);
    if (diagnostics.length === 0) out.info('findings doctor: hooks, attributes and compiled outputs look right');
    exit = hasErrors(diagnostics) ? ExitCode.Failed : ExitCode.Ok;
  });
  await parseArgs(cmd, args);
  return exit;
}
