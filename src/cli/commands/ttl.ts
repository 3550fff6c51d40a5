/**
 * `findings ttl [--apply]`: lists active findings past their `ttl_days`; `--apply` retires them
 * through the registry writer (docs/lifecycle.md). Without `--apply` nothing changes.
 * Exit codes: 0 listed (expired findings are information, not a failure) or retired; 1 the
 * registry writer refused; 2 bad usage. The pre-push hook never runs it.
 */
import { now } from '../../clock.js';
import { hasErrors } from '../../diagnostics.js';
import { ExitCode } from '../../exit-codes.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import type { CommonOptions } from '../options.js';

export const run = defineCommand(
  'ttl',
  'List active findings whose last_cited (or date, when never cited) is older than ttl_days; --apply retires them.',
  {
    declare: (cmd) => cmd.option('--apply', 'retire the expired findings (status "retired") through the registry writer'),
    root: 'any',
    formats: ['stylish', 'json'],
    action: async ({ io, opts, out, repoRoot }: CommandContext<CommonOptions & { apply?: boolean }>) => {
      const root = await repoRoot();
      const { ttlRun } = await import('../../lifecycle/ttl.js');
      const r = await ttlRun(root, now(io.env), Boolean(opts.apply));
      const exit = hasErrors(r.diagnostics) ? ExitCode.Failed : ExitCode.Ok;
      if (out.machine) {
        out.json({ expired: r.expired, retired: r.retired, diagnostics: r.diagnostics });
        return exit;
      }
      for (const e of r.expired) {
        const retired = opts.apply && r.retired.includes(e.id) ? ' → retired' : '';
        out.info(
          `${e.id}: ${e.from === 'last_cited' ? 'last cited' : 'dated'} ${e.since}, ${e.age_days} days ago > ttl_days ${e.ttl_days}${retired}`,
        );
      }
      if (r.expired.length === 0) out.info('no active finding is past its ttl_days');
      else if (!opts.apply) out.info(`${r.expired.length} finding(s) past ttl_days; run \`findings ttl --apply\` to retire them`);
      else if (r.retired.length > 0) out.info(`retired ${r.retired.length} finding(s); run \`findings compile\` to retire their outputs`);
      await out.diagnostics(r.diagnostics);
      return exit;
    },
  },
);
