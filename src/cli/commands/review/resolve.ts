/**
 * `findings review resolve` (mark findings addressed by the commits that fix them) and `submit`
 * (the resubmission gate: apply resolutions, then refuse while any finding is open); docs/review.md.
 */
import { ExitCode, UsageError } from '../../../exit-codes.js';
import { resolveCommit, userEmail } from '../../../git/core.js';
import { planResolutions, type ResolutionEntry, splitResolution } from '../../../review/actions.js';
import type { ReviewFinding } from '../../../review/ledger.js';
import { renderFinding, resolveCommand } from '../../../review/render.js';
import { updateLedger } from '../../../review/store.js';
import { type CommandContext, subcommand } from '../../define-command.js';
import type { CliIo } from '../../io.js';
import { collect, type CommonOptions } from '../../options.js';
import { othersIfUnknown, problemsOut, stamp, taskArg } from './shared.js';

/** Parses `<id>[:<commit>[:note]]` entries and resolves their commits (outside the lock: git is slow). */
async function resolutionEntries(
  root: string,
  values: readonly string[],
  defaultRev: string,
  notes: readonly (string | null)[],
): Promise<ResolutionEntry[]> {
  const out: ResolutionEntry[] = [];
  for (const [i, value] of values.entries()) {
    const parts = splitResolution(value);
    const rev = parts.rev ?? defaultRev;
    out.push({ input: parts.id, rev, commit: await resolveCommit(root, rev), note: parts.note ?? notes[i] ?? null });
  }
  return out;
}

async function applyResolutions(
  io: CliIo,
  root: string,
  task: string,
  entries: readonly ResolutionEntry[],
  verb: string,
): Promise<{ problems: string[]; findings: ReviewFinding[] }> {
  const actor = await userEmail(root);
  const at = stamp(io);
  const { result, findings } = await updateLedger(root, task, async (state) => {
    const others = await othersIfUnknown(
      root,
      task,
      entries.map((e) => e.input),
      state.findings,
    );
    return planResolutions(task, entries, state.findings, others, actor, at);
  });
  for (const [i, f] of result.applied.entries())
    io.stdout.write(`addressed ${renderFinding(f)} (commit ${result.events[i]!.commit.slice(0, 12)})\n`);
  problemsOut(io, verb, result.problems);
  return { problems: result.problems, findings };
}

interface ResolveOptions extends CommonOptions {
  finding: string[];
  note: string[];
  commit: string;
}

export const resolveSubcommand = subcommand('resolve', 'mark open findings addressed (by the commit that fixes them)', {
  root: 'any',
  rootFirst: true,
  declare: (cmd) =>
    cmd
      .argument('<task>')
      .requiredOption(
        '--finding <id[:commit]>',
        'finding id: 8 characters, a longer prefix or the full id; F-… and [F-…] work (repeatable)',
        collect,
        [],
      )
      .option('--note <text>', 'what changed (one for all, or one per --finding in order)', collect, [])
      .option('--commit <rev>', 'commit for entries without :<commit>', 'HEAD'),
  action: async ({ io, opts, repoRoot }: CommandContext<ResolveOptions>, taskIn: string) => {
    const task = taskArg(taskIn);
    const root = await repoRoot();
    if (opts.finding.length === 0) throw new UsageError('give at least one --finding <id>[:<commit>]');
    const notes = opts.note.length <= 1 ? opts.finding.map(() => opts.note[0] ?? null) : opts.note;
    if (opts.note.length > 1 && opts.note.length !== opts.finding.length)
      throw new UsageError(`give one --note, or exactly one per --finding (${opts.finding.length}); got ${opts.note.length}`);
    const entries = await resolutionEntries(root, opts.finding, opts.commit, notes);
    const { problems } = await applyResolutions(io, root, task, entries, 'resolve');
    return problems.length > 0 ? ExitCode.Failed : ExitCode.Ok;
  },
});

export const submitSubcommand = subcommand('submit', 'the resubmission gate: apply resolutions, then refuse while any finding is open', {
  root: 'any',
  rootFirst: true,
  declare: (cmd) =>
    cmd
      .argument('<task>')
      .option('--resolved <id[:commit[:note]]>', 'a resolution to apply first (repeatable; commit defaults to HEAD)', collect, []),
  action: async ({ io, opts, repoRoot }: CommandContext<CommonOptions & { resolved: string[] }>, taskIn: string) => {
    const task = taskArg(taskIn);
    const root = await repoRoot();
    const entries = await resolutionEntries(root, opts.resolved, 'HEAD', []);
    let findings: ReviewFinding[];
    let problems: string[] = [];
    if (entries.length > 0) ({ findings, problems } = await applyResolutions(io, root, task, entries, 'submit'));
    else findings = (await updateLedger(root, task, () => ({ events: [] }))).findings; // appends nothing; repairs a stale note
    const open = findings.filter((f) => f.status === 'open');
    if (open.length > 0) {
      io.stderr.write(
        `findings review submit: refused: ${open.length} finding${open.length === 1 ? ' is' : 's are'} still open on task ${task}:\n`,
      );
      for (const f of open) io.stderr.write(`  ${renderFinding(f)}\n    ${resolveCommand(f)}\n`);
      return ExitCode.Failed;
    }
    if (problems.length > 0) return ExitCode.Failed;
    const waiting = findings.filter((f) => f.status === 'addressed').length;
    io.stdout.write(`submitted: task ${task} has no open findings${waiting > 0 ? ` (${waiting} addressed, awaiting verification)` : ''}\n`);
    return ExitCode.Ok;
  },
});
