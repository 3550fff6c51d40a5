/** `findings review show` (a task's findings, stylish or JSON) and `note` (regenerate the task's note); docs/review.md. */
import { ExitCode, UsageError } from '../../../exit-codes.js';
import { stableStringify } from '../../../json-stable.js';
import { worktreeFiles } from '../../../repo-files.js';
import { readLedger, type ReviewFinding } from '../../../review/ledger.js';
import { renderFinding, renderWithStatus } from '../../../review/render.js';
import { regenerateNote } from '../../../review/store.js';
import { type CommandContext, subcommand } from '../../define-command.js';
import type { CommonOptions } from '../../options.js';
import { report, taskArg } from './shared.js';

/** One finding of `show --json` (docs/review.md, "Commands"). */
function showJson(f: ReviewFinding): Record<string, unknown> {
  return {
    id: f.id,
    short_id: f.shortId,
    task: f.task,
    status: f.status,
    origin: f.origin,
    round: f.round,
    severity: f.severity,
    file: f.file,
    line: f.line,
    criterion: f.criterion,
    expected: f.expected,
    actual: f.actual,
    fix: f.fix,
    evidence: f.evidence,
    class: f.class,
    rendering: renderFinding(f),
    ledger_file: f.ledgerFile,
    ledger_line: f.ledgerLine,
    filed_by: f.filedBy,
    filed_at: f.filedAt,
    resolution: f.resolution,
    waiver: f.waiver,
    // Imported findings only (docs/import.md): the forge's thread, and its resolution there.
    ...(f.source !== null ? { source: f.source } : {}),
    ...(f.forgeResolution !== null ? { forge_resolution: f.forgeResolution } : {}),
  };
}

const SHOW_KEYS = [
  'id',
  'short_id',
  'task',
  'status',
  'origin',
  'round',
  'severity',
  'file',
  'line',
  'criterion',
  'expected',
  'actual',
  'fix',
  'evidence',
  'class',
  'rendering',
  'ledger_file',
  'ledger_line',
  'filed_by',
  'filed_at',
  'resolution',
  'waiver',
  'source',
  'forge_resolution',
  'commit',
  'note',
  'actor',
  'at',
];

interface ShowOptions extends CommonOptions {
  open?: boolean;
  all?: boolean;
}

export const showSubcommand = subcommand('show', "a task's findings: open ones (default) or the full ledger, newest round first", {
  root: 'any',
  rootFirst: true,
  declare: (cmd) =>
    cmd
      .argument('<task>')
      .option('--open', 'only open findings (the default)')
      .option('--all', 'every round and status, newest round first'),
  formats: ['stylish', 'json'],
  action: async ({ io, opts, out, repoRoot }: CommandContext<ShowOptions>, taskIn: string) => {
    const task = taskArg(taskIn);
    if (opts.open && opts.all) throw new UsageError('--open and --all exclude each other');
    const root = await repoRoot();
    const { findings, diagnostics } = await readLedger(worktreeFiles(root), task);
    await report(io, diagnostics);
    const list = opts.all
      ? [...findings].sort((a, b) => b.round - a.round || a.index - b.index || (a.id < b.id ? -1 : 1))
      : findings.filter((f) => f.status === 'open');
    if (out.machine) io.stdout.write(stableStringify(list.map(showJson), SHOW_KEYS));
    else if (list.length === 0) out.info(opts.all ? `task ${task}: no findings` : `task ${task}: no open findings`);
    else if (!opts.all) for (const f of list) out.info(renderFinding(f));
    else {
      let round = -1;
      for (const f of list) {
        if (f.round !== round) {
          round = f.round;
          out.info(`round ${round} (${[...new Set(list.filter((g) => g.round === round).map((g) => g.origin))].sort().join(', ')})`);
        }
        out.info(`  ${renderWithStatus(f)}`);
      }
    }
    return ExitCode.Ok;
  },
});

export const noteSubcommand = subcommand('note', 'regenerate .agents/reviews/<task>.md from the ledger (e.g. after a merge)', {
  root: 'any',
  rootFirst: true,
  declare: (cmd) => cmd.argument('<task>'),
  action: async ({ io, repoRoot }: CommandContext<CommonOptions>, taskIn: string) => {
    const task = taskArg(taskIn);
    const root = await repoRoot();
    io.stdout.write(`${task}: note ${await regenerateNote(root, task)}\n`);
    return ExitCode.Ok;
  },
});
