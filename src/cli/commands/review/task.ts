/** `findings review task`: create or extend a task's acceptance criteria (docs/review.md). */
import { ExitCode, UsageError } from '../../../exit-codes.js';
import { userEmail } from '../../../git/core.js';
import { updateTaskFile } from '../../../review/store.js';
import { criterionTexts, extendTask } from '../../../review/task-file.js';
import { type CommandContext, subcommand } from '../../define-command.js';
import { collect, type CommonOptions } from '../../options.js';
import { report, taskArg } from './shared.js';

interface TaskOptions extends CommonOptions {
  criterion: string[];
  owner?: string;
  objective?: string;
}

export const taskSubcommand = subcommand('task', 'create or extend .agents/tasks/<task>.json (acceptance criteria)', {
  root: 'any',
  rootFirst: true,
  declare: (cmd) =>
    cmd
      .argument('<task>')
      .requiredOption('--criterion <text>', 'an acceptance criterion (repeatable; ids AC1, AC2, … in order)', collect, [])
      .option('--owner <email>', 'task owner (default: git config user.email)')
      .option('--objective <text>', 'the objective the task belongs to (groups recurrence)'),
  action: async ({ io, opts, repoRoot }: CommandContext<TaskOptions>, taskIn: string) => {
    const task = taskArg(taskIn);
    const root = await repoRoot();
    const criteria = criterionTexts(opts.criterion);
    if (criteria.length === 0) throw new UsageError('give at least one non-empty --criterion');
    const owner = opts.owner ?? (await userEmail(root)) ?? undefined;
    const written = await updateTaskFile(root, task, (current) =>
      extendTask(task, current, { criteria, owner, objective: opts.objective }),
    );
    if (!written.ok) {
      await report(io, written.diagnostics);
      return ExitCode.Failed;
    }
    for (const c of written.task.criteria) io.stdout.write(`${c.id}  ${c.text}\n`);
    return ExitCode.Ok;
  },
});
