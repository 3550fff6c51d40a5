/**
 * `findings recur [--json] [--promote <class_key>]`: recurring review findings become advisory
 * registry candidates (docs/contracts/compiler.md#recurrence-producer-defects; docs/lifecycle.md).
 * Exit codes: 0 done (candidates never fail anything); 1 `--promote` named no candidate or the
 * registry writer refused the entry; 2 bad usage.
 */
import { formatStylish } from '../../output/stylish.js';
import { hasErrors } from '../../diagnostics.js';
import { ExitCode } from '../../exit-codes.js';
import { Layout } from '../../layout.js';
import type { CliIo } from '../io.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveRoot, type CommonOptions } from '../options.js';

interface RecurOptions extends CommonOptions {
  promote?: string;
}

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand(
    'recur',
    'Group review findings by defect class; a class seen in two or more objectives becomes one advisory candidate in .agents/findings/candidates.jsonl.',
    io,
  ).option('--promote <class_key>', "append the candidate's proposed entry to the registry (merged by dedup_key)");
  addRootOption(cmd);
  addFormatOptions(cmd, ['stylish', 'json']);
  cmd.action(async (opts: RecurOptions) => {
    const out = Output.from(io, opts, ['stylish', 'json']);
    const root = await resolveRoot(opts.root, io);
    const { runRecurrence, promoteCandidate } = await import('../../recur/run.js');
    const r =
      opts.promote === undefined
        ? { ...(await runRecurrence(root)), promoted: null, added: null }
        : await promoteCandidate(root, opts.promote);
    exit = hasErrors(r.diagnostics) ? ExitCode.Failed : ExitCode.Ok;
    if (out.machine) {
      out.json(opts.promote === undefined ? r.candidates : { promoted: r.promoted, added: r.added, diagnostics: r.diagnostics });
      // Human-readable problems go to stderr so stdout stays one JSON document.
      if (opts.promote === undefined && r.diagnostics.length > 0) io.stderr.write(formatStylish(r.diagnostics, out.errPaint));
      return;
    }
    if (opts.promote === undefined) {
      for (const c of r.candidates) {
        out.info(
          `${c.class_key}${c.derived ? ' (derived)' : ''}: ${c.recurrence_count} objectives ` +
            `(${c.evidence.map((e) => e.objective).join(', ')}) → proposes ${c.proposed_entry.id}: ${c.proposed_entry.pattern}`,
        );
      }
      out.info(`${r.candidates.length} advisory candidate(s) → ${Layout.candidates} (${r.state})`);
    } else if (r.promoted && r.added && !hasErrors(r.diagnostics)) {
      const id = r.promoted.proposed_entry.id;
      const how =
        r.added.appended.length > 0
          ? `appended ${r.added.appended.join(', ')}`
          : r.added.updated.length > 0
            ? `merged into ${r.added.updated.join(', ')} (same dedup_key)`
            : `already in the registry as ${[...r.added.unchanged, id][0]}`;
      out.info(`promoted ${r.promoted.class_key}: ${how} in ${Layout.registry}`);
    }
    await out.diagnostics(r.diagnostics);
  });
  await parseArgs(cmd, args);
  return exit;
}
