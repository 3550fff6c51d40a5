/**
 * `findings ttl [--apply]`: lists active findings past their `ttl_days`; `--apply` retires them
 * through the registry writer (docs/lifecycle.md). Without `--apply` nothing changes.
 * Exit codes: 0 listed (expired findings are information, not a failure) or retired; 1 the
 * registry writer refused; 2 bad usage. The pre-push hook never runs it.
 */
import { now } from '../../clock.js';
import { hasErrors } from '../../diagnostics.js';
import { ExitCode } from '../../exit-codes.js';
import type { CliIo } from '../io.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveRoot, type CommonOptions } from '../options.js';

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand(
    'ttl',
    'List active findings whose last_cited (or date, when never cited) is older than ttl_days; --apply retires them.',
    io,
  ).option('--apply', 'retire the expired findings (status "retired") through the registry writer');
  addRootOption(cmd);
  addFormatOptions(cmd, ['stylish', 'json']);
  cmd.action(async (opts: CommonOptions & { apply?: boolean }) => {
    const out = Output.from(io, opts, ['stylish', 'json']);
    const root = await resolveRoot(opts.root, io);
    const { ttlRun } = await import('../../lifecycle/ttl.js');
    const r = await ttlRun(root, now(io.env), Boolean(opts.apply));
    exit = hasErrors(r.diagnostics) ? ExitCode.Failed : ExitCode.Ok;
    if (out.machine) {
      out.json({ expired: r.expired, retired: r.retired, diagnostics: r.diagnostics });
      return;
    }
    for (const e of r.expired) {
      out.info(
        `${e.id}: ${e.from === 'last_cited' ? 'last cited' : 'dated'} ${e.since}, ${e.age_days} days ` +
          `ago > ttl_days ${e.ttl_days}${opts.apply && r.retired.includes(e.id) ? ' → retired' : ''}`,
      );
    }
    if (r.expired.length === 0) out.info('no active finding is past its ttl_days');
    else if (!opts.apply) out.info(`${r.expired.length} finding(s) past ttl_days; run \`findings ttl --apply\` to retire them`);
    else if (r.retired.length > 0) out.info(`retired ${r.retired.length} finding(s); run \`findings compile\` to retire their outputs`);
    await out.diagnostics(r.diagnostics);
  });
  await parseArgs(cmd, args);
  return exit;
}
