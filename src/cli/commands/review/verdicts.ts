/** `findings review pass` (verify the addressed findings of one origin) and `waive` (auditors only); docs/review.md. */
import { Option } from 'commander';
import { ExitCode } from '../../../exit-codes.js';
import { userEmail } from '../../../git/core.js';
import { worktreeFiles } from '../../../repo-files.js';
import { planPass, planWaiver } from '../../../review/actions.js';
import { renderFinding } from '../../../review/render.js';
import { readRoles } from '../../../review/roles.js';
import { updateLedger } from '../../../review/store.js';
import { ORIGINS, type Origin } from '../../../review/types.js';
import { type CommandContext, subcommand } from '../../define-command.js';
import type { CommonOptions } from '../../options.js';
import { othersIfUnknown, problemsOut, stamp, taskArg } from './shared.js';

export const passSubcommand = subcommand('pass', "a passing review: verifies every addressed finding of the reviewer's origin", {
  root: 'any',
  rootFirst: true,
  declare: (cmd) =>
    cmd.argument('<task>').addOption(new Option('--origin <origin>', 'whose pass this is').choices([...ORIGINS]).makeOptionMandatory()),
  action: async ({ io, opts, repoRoot }: CommandContext<CommonOptions & { origin: Origin }>, taskIn: string) => {
    const task = taskArg(taskIn);
    const root = await repoRoot();
    const actor = await userEmail(root);
    const at = stamp(io);
    const { result, findings } = await updateLedger(root, task, (state) => planPass(task, opts.origin, state.findings, actor, at));
    for (const f of result.applied) io.stdout.write(`verified ${renderFinding(f)}\n`);
    const open = findings.filter((f) => f.origin === opts.origin && f.status === 'open').length;
    const stillOpen = open > 0 ? `; ${open} ${opts.origin} finding${open === 1 ? ' is' : 's are'} still open` : '';
    io.stderr.write(`${opts.origin} pass on task ${task}: ${result.applied.length} verified${stillOpen}\n`);
    return ExitCode.Ok;
  },
});

export const waiveSubcommand = subcommand('waive', 'waive an open minor or nit finding (auditors only, see .agents/roles.json)', {
  root: 'any',
  rootFirst: true,
  declare: (cmd) => cmd.argument('<task>').argument('<id>').requiredOption('--note <text>', 'why it is waived'),
  action: async ({ io, opts, repoRoot }: CommandContext<CommonOptions & { note: string }>, taskIn: string, id: string) => {
    const task = taskArg(taskIn);
    const root = await repoRoot();
    const actor = await userEmail(root);
    const { roles } = await readRoles(worktreeFiles(root));
    const at = stamp(io);
    const { result } = await updateLedger(root, task, async (state) => {
      const others = await othersIfUnknown(root, task, [id], state.findings);
      return planWaiver(task, id, opts.note, state.findings, others, roles, actor, at);
    });
    for (const f of result.applied) io.stdout.write(`waived ${renderFinding(f)} (by ${actor})\n`);
    problemsOut(io, 'waive', result.problems);
    return result.problems.length > 0 ? ExitCode.Failed : ExitCode.Ok;
  },
});
