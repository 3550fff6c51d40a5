/**
 * Filing a review round (docs/review.md): `fail` (QA), `pr-fail` (the PR reviewer),
 * `request-changes` (the PM) and `ceo-reject`. One call is one round; the round is planned from
 * the ledger inside the task's lock (src/review/store.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { hasErrors } from '../../../diagnostics.js';
import { ExitCode, UsageError } from '../../../exit-codes.js';
import { userEmail } from '../../../git/core.js';
import { parseJsonDocument } from '../../../jsonl.js';
import { taskPath } from '../../../layout.js';
import { worktreeFiles } from '../../../repo-files.js';
import { arrayElementLines } from '../../../review/json-positions.js';
import { readTaskChecked } from '../../../review/ledger.js';
import { ceoFinding, planFiling } from '../../../review/producer.js';
import { renderFinding } from '../../../review/render.js';
import { holdsRole, readRoles } from '../../../review/roles.js';
import { updateLedger } from '../../../review/store.js';
import type { Origin, TaskFile } from '../../../review/types.js';
import { type CommandContext, type Subcommand, subcommand } from '../../define-command.js';
import { type CliIo, readStdin } from '../../io.js';
import { collect, type CommonOptions } from '../../options.js';
import { report, stamp, taskArg } from './shared.js';

const PRODUCERS: readonly { name: string; origin: Origin; who: string }[] = [
  { name: 'fail', origin: 'qa', who: 'QA' },
  { name: 'pr-fail', origin: 'pr_gate', who: 'the PR reviewer' },
  { name: 'request-changes', origin: 'pm', who: 'the PM' },
];

interface FileOptions extends CommonOptions {
  findings?: string;
  issue: string[];
}

async function loadFindingsInput(io: CliIo, file: string): Promise<{ source: string; text: string }> {
  if (file === '-') return { source: '<stdin>', text: await readStdin(io) };
  try {
    return { source: file, text: await readFile(path.resolve(io.cwd, file), 'utf8') };
  } catch (error) {
    throw new UsageError(`--findings ${file}: cannot read (${(error as { code?: string }).code ?? String(error)})`);
  }
}

/** Files one round and prints each new finding rendered. Shared by fail, pr-fail, request-changes and ceo-reject. */
async function fileRound(
  io: CliIo,
  root: string,
  task: string,
  origin: Origin,
  raw: unknown,
  source: string,
  elementLines: readonly number[],
  issues: readonly string[],
): Promise<ExitCode> {
  const checked = await readTaskChecked(worktreeFiles(root), task);
  if (hasErrors(checked.diagnostics)) {
    await report(io, checked.diagnostics);
    io.stderr.write(`findings review: nothing filed: ${taskPath(task)} is invalid\n`);
    return ExitCode.Failed;
  }
  const taskFile: TaskFile | null = checked.task;
  const actor = await userEmail(root);
  const at = stamp(io);
  const { result, findings } = await updateLedger(root, task, (state) =>
    planFiling({ task, origin, taskFile, findings: raw, source, elementLines, issues, actor, at, existing: state.findings }),
  );
  await report(io, result.diagnostics);
  if (hasErrors(result.diagnostics)) {
    io.stderr.write('findings review: nothing filed (fix the findings above and run the command again)\n');
    return ExitCode.Failed;
  }
  for (const f of result.filed) io.stdout.write(`${renderFinding(f)}\n`);
  const open = findings.filter((f) => f.status === 'open').length;
  const n = result.filed.length;
  io.stderr.write(
    `filed ${n} ${origin} finding${n === 1 ? '' : 's'} on task ${task} (round ${result.filed[0]?.round ?? 0}); ${open} open in total\n`,
  );
  return ExitCode.Ok;
}

function producerSubcommand(p: (typeof PRODUCERS)[number]): Subcommand {
  return subcommand(p.name, `file ${p.who}'s findings on a task (origin ${p.origin}); one call is one review round`, {
    root: 'any',
    rootFirst: true,
    declare: (cmd) =>
      cmd
        .argument('<task>')
        .option('--findings <file>', 'JSON array of findings (the contract shape); - reads standard input')
        .option('--issue <text>', 'deprecated: a plain-text issue, filed as a file-less major finding (repeatable)', collect, []),
    action: async ({ io, opts, repoRoot }: CommandContext<FileOptions>, taskIn: string) => {
      const task = taskArg(taskIn);
      const root = await repoRoot();
      if (opts.findings === undefined && opts.issue.length === 0) throw new UsageError('give --findings <file|-> or at least one --issue');
      let raw: unknown = null;
      let source = '--issue';
      let lines: number[] = [];
      if (opts.findings !== undefined) {
        const input = await loadFindingsInput(io, opts.findings);
        source = input.source;
        const doc = parseJsonDocument(input.text);
        if (!doc.ok) {
          await report(io, [
            {
              file: source,
              line: doc.line,
              column: doc.column,
              severity: 'error',
              ruleId: 'review/findings-invalid-json',
              message: doc.reason,
            },
          ]);
          io.stderr.write('findings review: nothing filed\n');
          return ExitCode.Failed;
        }
        raw = doc.value;
        lines = arrayElementLines(input.text);
      }
      return fileRound(io, root, task, p.origin, raw, source, lines, opts.issue);
    },
  });
}

export const producerSubcommands: readonly Subcommand[] = PRODUCERS.map(producerSubcommand);

export const ceoRejectSubcommand = subcommand('ceo-reject', "file the CEO's rejection as one blocker finding (origin ceo); CEOs only", {
  root: 'any',
  rootFirst: true,
  declare: (cmd) => cmd.argument('<task>').requiredOption('--reason <text>', "why the task is rejected (becomes the finding's actual)"),
  action: async ({ io, opts, repoRoot }: CommandContext<CommonOptions & { reason: string }>, taskIn: string) => {
    const task = taskArg(taskIn);
    const root = await repoRoot();
    const made = ceoFinding(opts.reason);
    const refuse = (msg: string): ExitCode => {
      io.stderr.write(`findings review ceo-reject: ${msg}\n`);
      return ExitCode.Failed;
    };
    if ('problem' in made) return refuse(made.problem);
    const actor = await userEmail(root);
    const { roles } = await readRoles(worktreeFiles(root));
    if (!holdsRole(roles, 'ceo', actor))
      return refuse(`${actor ?? '(git config user.email is not set)'} is not listed under "ceo" in .agents/roles.json`);
    return fileRound(io, root, task, 'ceo', [made.finding], '--reason', [], []);
  },
});
