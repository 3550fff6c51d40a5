/**
 * `findings review …`: the review ledger (contract: docs/contracts/review-ledger.md). This module only
 * wires argv to the pure planners in src/review/ and prints; every write goes through
 * src/review/store.ts (per-task lock, one append, note regenerated).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { isoSeconds, now } from '../../clock.js';
import { hasErrors, type Diagnostic } from '../../diagnostics.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { withLock } from '../../fs/lock.js';
import { repoTarget, writeRepoFile } from '../../fs/repo-write.js';
import { resolveCommit, userEmail } from '../../git/core.js';
import { stableStringify } from '../../json-stable.js';
import { parseJsonDocument } from '../../jsonl.js';
import { idFileNameProblem, reviewLockPath, taskPath } from '../../layout.js';
import { formatDiagnostics } from '../../output/format.js';
import { worktreeFiles } from '../../repo-files.js';
import { planPass, planResolutions, planWaiver, splitResolution, type ResolutionEntry } from '../../review/actions.js';
import { matchId } from '../../review/ids.js';
import { arrayElementLines } from '../../review/json-positions.js';
import { readAllLedgers, readLedger, readTaskChecked, type ReviewFinding } from '../../review/ledger.js';
import { ceoFinding, planFiling } from '../../review/producer.js';
import { renderFinding, renderWithStatus, resolveCommand } from '../../review/render.js';
import { holdsRole, readRoles } from '../../review/roles.js';
import { regenerateNote, updateLedger } from '../../review/store.js';
import { ORIGINS, type Origin, type TaskFile } from '../../review/types.js';
import { readStdin, type CliIo } from '../io.js';
import {
  addFormatOptions,
  addRootOption,
  baseCommand,
  collect,
  Output,
  parseArgs,
  resolveRoot,
  subCommand,
  type CommonOptions,
} from '../options.js';

const PRODUCERS: readonly { name: string; origin: Origin; who: string }[] = [
  { name: 'fail', origin: 'qa', who: 'QA' },
  { name: 'pr-fail', origin: 'pr_gate', who: 'the PR reviewer' },
  { name: 'request-changes', origin: 'pm', who: 'the PM' },
];

function taskArg(task: string): string {
  const problem = idFileNameProblem(task);
  if (problem !== null) throw new UsageError(`"${task}" is not a valid task id: it ${problem}`);
  return task;
}

/** Diagnostics in stylish form on stderr (stdout carries the renderings). */
async function report(io: CliIo, list: readonly Diagnostic[]): Promise<void> {
  if (list.length === 0) return;
  io.stderr.write(await formatDiagnostics(list, 'stylish', { paint: new Output(io, 'stylish').errPaint }));
}

function problemsOut(io: CliIo, verb: string, problems: readonly string[]): void {
  for (const p of problems) io.stderr.write(`findings review ${verb}: ${p}\n`);
}

const stamp = (io: CliIo): string => isoSeconds(now(io.env));

/** Findings of other tasks, read only when an id is unknown here (for "belongs to task X"). */
async function othersIfUnknown(
  root: string,
  task: string,
  inputs: readonly string[],
  findings: readonly ReviewFinding[],
): Promise<ReviewFinding[]> {
  const ids = findings.map((f) => f.id);
  if (!inputs.some((i) => matchId(i, ids).kind === 'unknown')) return [];
  return (await readAllLedgers(worktreeFiles(root))).findings.filter((f) => f.task !== task);
}

async function loadFindingsInput(io: CliIo, file: string): Promise<{ source: string; text: string }> {
  if (file === '-') return { source: '<stdin>', text: await readStdin(io) };
  try {
    return { source: file, text: await readFile(path.resolve(io.cwd, file), 'utf8') };
  } catch (error) {
    throw new UsageError(`--findings ${file}: cannot read (${(error as { code?: string }).code ?? String(error)})`);
  }
}

interface FileOptions extends CommonOptions {
  findings?: string;
  issue: string[];
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
  io.stderr.write(
    `filed ${result.filed.length} ${origin} finding${result.filed.length === 1 ? '' : 's'} ` +
      `on task ${task} (round ${result.filed[0]?.round ?? 0}); ${open} open in total\n`,
  );
  return ExitCode.Ok;
}

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
  'commit',
  'note',
  'actor',
  'at',
];

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const review = baseCommand('review', 'The review ledger: file, resolve, submit, pass, waive, show.', io);
  const sub = (name: string, description: string): Command => addRootOption(subCommand(review, name, description, io));

  sub('task', 'create or extend .agents/tasks/<task>.json (acceptance criteria)')
    .argument('<task>')
    .requiredOption('--criterion <text>', 'an acceptance criterion (repeatable; ids AC1, AC2, … in order)', collect, [])
    .option('--owner <email>', 'task owner (default: git config user.email)')
    .option('--objective <text>', 'the objective the task belongs to (groups recurrence)')
    .action(async (taskIn: string, opts: CommonOptions & { criterion: string[]; owner?: string; objective?: string }) => {
      const task = taskArg(taskIn);
      const root = await resolveRoot(opts.root, io);
      const texts = opts.criterion.map((t) => t.trim()).filter((t) => t !== '');
      if (texts.length === 0) throw new UsageError('give at least one non-empty --criterion');
      const owner = opts.owner ?? (await userEmail(root)) ?? undefined;
      await withLock(repoTarget(root, reviewLockPath(task)), async () => {
        const checked = await readTaskChecked(worktreeFiles(root), task);
        if (hasErrors(checked.diagnostics)) {
          await report(io, checked.diagnostics);
          exit = ExitCode.Failed;
          return;
        }
        const current: TaskFile = checked.task ?? { id: task, criteria: [] };
        const criteria = [...current.criteria];
        let n = criteria.reduce((m, c) => Math.max(m, Number(/^AC(\d+)$/.exec(c.id)?.[1] ?? 0)), 0);
        for (const text of texts) if (!criteria.some((c) => c.text === text)) criteria.push({ id: `AC${(n += 1)}`, text });
        const next: TaskFile = {
          id: task,
          criteria,
          ...((current.owner ?? owner) ? { owner: (current.owner ?? owner)! } : {}),
          ...((opts.objective ?? current.objective) ? { objective: (opts.objective ?? current.objective)! } : {}),
        };
        await writeRepoFile(root, taskPath(task), stableStringify(next, ['id', 'owner', 'objective', 'criteria', 'text']));
        for (const c of criteria) io.stdout.write(`${c.id}  ${c.text}\n`);
      });
    });

  for (const p of PRODUCERS) {
    sub(p.name, `file ${p.who}'s findings on a task (origin ${p.origin}); one call is one review round`)
      .argument('<task>')
      .option('--findings <file>', 'JSON array of findings (the contract shape); - reads standard input')
      .option('--issue <text>', 'deprecated: a plain-text issue, filed as a file-less major finding (repeatable)', collect, [])
      .action(async (taskIn: string, opts: FileOptions) => {
        const task = taskArg(taskIn);
        const root = await resolveRoot(opts.root, io);
        if (opts.findings === undefined && opts.issue.length === 0)
          throw new UsageError('give --findings <file|-> or at least one --issue');
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
            exit = ExitCode.Failed;
            return;
          }
          raw = doc.value;
          lines = arrayElementLines(input.text);
        }
        exit = await fileRound(io, root, task, p.origin, raw, source, lines, opts.issue);
      });
  }

  sub('ceo-reject', "file the CEO's rejection as one blocker finding (origin ceo); CEOs only")
    .argument('<task>')
    .requiredOption('--reason <text>', "why the task is rejected (becomes the finding's actual)")
    .action(async (taskIn: string, opts: CommonOptions & { reason: string }) => {
      const task = taskArg(taskIn);
      const root = await resolveRoot(opts.root, io);
      const made = ceoFinding(opts.reason);
      const refuse = (msg: string): void => {
        io.stderr.write(`findings review ceo-reject: ${msg}\n`);
        exit = ExitCode.Failed;
      };
      if ('problem' in made) return refuse(made.problem);
      const actor = await userEmail(root);
      const { roles } = await readRoles(worktreeFiles(root));
      if (!holdsRole(roles, 'ceo', actor))
        return refuse(`${actor ?? '(git config user.email is not set)'} is not listed under "ceo" in .agents/roles.json`);
      exit = await fileRound(io, root, task, 'ceo', [made.finding], '--reason', [], []);
    });

  sub('resolve', 'mark open findings addressed (by the commit that fixes them)')
    .argument('<task>')
    .requiredOption(
      '--finding <id[:commit]>',
      'finding id: 8 characters, a longer prefix or the full id; F-… and [F-…] work (repeatable)',
      collect,
      [],
    )
    .option('--note <text>', 'what changed (one for all, or one per --finding in order)', collect, [])
    .option('--commit <rev>', 'commit for entries without :<commit>', 'HEAD')
    .action(async (taskIn: string, opts: CommonOptions & { finding: string[]; note: string[]; commit: string }) => {
      const task = taskArg(taskIn);
      const root = await resolveRoot(opts.root, io);
      if (opts.finding.length === 0) throw new UsageError('give at least one --finding <id>[:<commit>]');
      const notes = opts.note.length <= 1 ? opts.finding.map(() => opts.note[0] ?? null) : opts.note;
      if (opts.note.length > 1 && opts.note.length !== opts.finding.length)
        throw new UsageError(`give one --note, or exactly one per --finding (${opts.finding.length}); got ${opts.note.length}`);
      const entries = await resolutionEntries(root, opts.finding, opts.commit, notes);
      const { problems } = await applyResolutions(io, root, task, entries, 'resolve');
      exit = problems.length > 0 ? ExitCode.Failed : ExitCode.Ok;
    });

  sub('submit', 'the resubmission gate: apply resolutions, then refuse while any finding is open')
    .argument('<task>')
    .option('--resolved <id[:commit[:note]]>', 'a resolution to apply first (repeatable; commit defaults to HEAD)', collect, [])
    .action(async (taskIn: string, opts: CommonOptions & { resolved: string[] }) => {
      const task = taskArg(taskIn);
      const root = await resolveRoot(opts.root, io);
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
        exit = ExitCode.Failed;
        return;
      }
      if (problems.length > 0) {
        exit = ExitCode.Failed;
        return;
      }
      const waiting = findings.filter((f) => f.status === 'addressed').length;
      io.stdout.write(
        `submitted: task ${task} has no open findings${waiting > 0 ? ` (${waiting} addressed, awaiting verification)` : ''}\n`,
      );
    });

  sub('pass', "a passing review: verifies every addressed finding of the reviewer's origin")
    .argument('<task>')
    .addOption(new Option('--origin <origin>', 'whose pass this is').choices([...ORIGINS]).makeOptionMandatory())
    .action(async (taskIn: string, opts: CommonOptions & { origin: Origin }) => {
      const task = taskArg(taskIn);
      const root = await resolveRoot(opts.root, io);
      const actor = await userEmail(root);
      const at = stamp(io);
      const { result, findings } = await updateLedger(root, task, (state) => planPass(task, opts.origin, state.findings, actor, at));
      for (const f of result.applied) io.stdout.write(`verified ${renderFinding(f)}\n`);
      const open = findings.filter((f) => f.origin === opts.origin && f.status === 'open').length;
      io.stderr.write(
        `${opts.origin} pass on task ${task}: ${result.applied.length} ` +
          `verified${open > 0 ? `; ${open} ${opts.origin} finding${open === 1 ? ' is' : 's are'} still open` : ''}\n`,
      );
    });

  sub('waive', 'waive an open minor or nit finding (auditors only, see .agents/roles.json)')
    .argument('<task>')
    .argument('<id>')
    .requiredOption('--note <text>', 'why it is waived')
    .action(async (taskIn: string, id: string, opts: CommonOptions & { note: string }) => {
      const task = taskArg(taskIn);
      const root = await resolveRoot(opts.root, io);
      const actor = await userEmail(root);
      const { roles } = await readRoles(worktreeFiles(root));
      const at = stamp(io);
      const { result } = await updateLedger(root, task, async (state) => {
        const others = await othersIfUnknown(root, task, [id], state.findings);
        return planWaiver(task, id, opts.note, state.findings, others, roles, actor, at);
      });
      for (const f of result.applied) io.stdout.write(`waived ${renderFinding(f)} (by ${actor})\n`);
      problemsOut(io, 'waive', result.problems);
      exit = result.problems.length > 0 ? ExitCode.Failed : ExitCode.Ok;
    });

  const show = sub('show', "a task's findings: open ones (default) or the full ledger, newest round first")
    .argument('<task>')
    .option('--open', 'only open findings (the default)')
    .option('--all', 'every round and status, newest round first');
  addFormatOptions(show, ['stylish', 'json']);
  show.action(async (taskIn: string, opts: CommonOptions & { open?: boolean; all?: boolean }) => {
    const task = taskArg(taskIn);
    if (opts.open && opts.all) throw new UsageError('--open and --all exclude each other');
    const out = Output.from(io, opts, ['stylish', 'json']);
    const root = await resolveRoot(opts.root, io);
    const { findings, diagnostics } = await readLedger(worktreeFiles(root), task);
    await report(io, diagnostics);
    const list = opts.all
      ? [...findings].sort((a, b) => b.round - a.round || a.index - b.index || (a.id < b.id ? -1 : 1))
      : findings.filter((f) => f.status === 'open');
    if (out.machine) {
      io.stdout.write(stableStringify(list.map(showJson), SHOW_KEYS));
      return;
    }
    if (list.length === 0) {
      out.info(opts.all ? `task ${task}: no findings` : `task ${task}: no open findings`);
      return;
    }
    if (!opts.all) {
      for (const f of list) out.info(renderFinding(f));
      return;
    }
    let round = -1;
    for (const f of list) {
      if (f.round !== round) {
        round = f.round;
        out.info(`round ${round} (${[...new Set(list.filter((g) => g.round === round).map((g) => g.origin))].sort().join(', ')})`);
      }
      out.info(`  ${renderWithStatus(f)}`);
    }
  });

  sub('note', 'regenerate .agents/reviews/<task>.md from the ledger (e.g. after a merge)')
    .argument('<task>')
    .action(async (taskIn: string, opts: CommonOptions) => {
      const task = taskArg(taskIn);
      const root = await resolveRoot(opts.root, io);
      io.stdout.write(`${task}: note ${await regenerateNote(root, task)}\n`);
    });

  review.action(() => {
    throw new UsageError('give a subcommand: task, fail, pr-fail, request-changes, ceo-reject, resolve, submit, pass, waive, show, note');
  });
  await parseArgs(review, args);
  return exit;
}
