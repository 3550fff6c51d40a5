/** What the `findings review` subcommands share: the task argument, stamps and how problems are printed. */
import { isoSeconds, now } from '../../../clock.js';
import type { Diagnostic } from '../../../diagnostics.js';
import { UsageError } from '../../../exit-codes.js';
import { idFileNameProblem } from '../../../layout.js';
import { formatDiagnostics } from '../../../output/format.js';
import { worktreeFiles } from '../../../repo-files.js';
import { matchId } from '../../../review/ids.js';
import { readAllLedgers, type ReviewFinding } from '../../../review/ledger.js';
import type { CliIo } from '../../io.js';
import { Output } from '../../options.js';

/** A task id becomes file names (`.agents/tasks/<task>.json`, …): refuse what could escape. */
export function taskArg(task: string): string {
  const problem = idFileNameProblem(task);
  if (problem !== null) throw new UsageError(`"${task}" is not a valid task id: it ${problem}`);
  return task;
}

/** Diagnostics in stylish form on stderr (stdout carries the renderings). */
export async function report(io: CliIo, list: readonly Diagnostic[]): Promise<void> {
  if (list.length === 0) return;
  io.stderr.write(await formatDiagnostics(list, 'stylish', { paint: new Output(io, 'stylish').errPaint }));
}

export function problemsOut(io: CliIo, verb: string, problems: readonly string[]): void {
  for (const p of problems) io.stderr.write(`findings review ${verb}: ${p}\n`);
}

/** The event time (`at`): now, or FINDINGS_NOW. */
export const stamp = (io: CliIo): string => isoSeconds(now(io.env));

/** Findings of other tasks, read only when an id is unknown here (for "belongs to task X"). */
export async function othersIfUnknown(
  root: string,
  task: string,
  inputs: readonly string[],
  findings: readonly ReviewFinding[],
): Promise<ReviewFinding[]> {
  const ids = findings.map((f) => f.id);
  if (!inputs.some((i) => matchId(i, ids).kind === 'unknown')) return [];
  return (await readAllLedgers(worktreeFiles(root))).findings.filter((f) => f.task !== task);
}
