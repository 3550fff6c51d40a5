/**
 * The ledger write side: every change is an append of new events to `.agents/reviews/<task>.jsonl`
 * under the per-task lock, as one write (read + append + atomic rename), followed by regenerating
 * the note `.agents/reviews/<task>.md`. The decision of what to append is made inside the lock from
 * the ledger as it is then, so two concurrent producers never compute the same round. The task
 * file `.agents/tasks/<task>.json` is written here too, under the same lock.
 */
import { readFileSync } from 'node:fs';
import { readIfExists } from '../fs/atomic.js';
import { repoTarget, writeRepoFile, writeRepoFileIfChanged, WriteRefusedError } from '../fs/repo-write.js';
import { withLock } from '../fs/lock.js';
import { reviewLedgerPath, reviewLockPath, reviewNotePath, taskPath } from '../layout.js';
import { packageFile } from '../package-root.js';
import { worktreeFiles } from '../repo-files.js';
import { eventLine, parseLedger } from './events.js';
import { foldEvents, readLedgerEvents, readTaskChecked, type ReviewFinding } from './ledger.js';
import { fillTemplate, noteSlots } from './render.js';
import { renderTaskFile } from './task-file.js';
import type { ReviewEvent, TaskFile } from './types.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';

/** What a planner sees: the task's current events and folded findings (working tree). */
export interface LedgerState {
  readonly task: string;
  readonly events: readonly ReviewEvent[];
  readonly findings: readonly ReviewFinding[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Text to append so the new lines start on a fresh line even if the file lacks its final newline. */
export function appendText(current: string, events: readonly ReviewEvent[]): string {
  if (events.length === 0) return current;
  const sep = current !== '' && !current.endsWith('\n') ? '\n' : '';
  return `${current}${sep}${events.map((e) => `${eventLine(e)}\n`).join('')}`;
}

/**
 * The appended lines, read back as the ledger reader will read them: a writer never appends a
 * line `findings validate` would reject (WriteRefusedError → exit 1, nothing written).
 */
function refuseInvalidEvents(task: string, events: readonly ReviewEvent[]): void {
  const file = reviewLedgerPath(task);
  const parsed = parseLedger(events.map((e) => `${eventLine(e)}\n`).join(''), file, task);
  const problem = parsed.diagnostics.find((d) => d.severity === 'error');
  if (problem !== undefined) throw new WriteRefusedError(`refused to append to ${file}: ${problem.message}; nothing written`);
}

let noteTemplate: string | null = null;

/** The note's Markdown for a task's findings. Pure given the template. */
export function renderNote(task: string, findings: readonly ReviewFinding[]): string {
  noteTemplate ??= readFileSync(packageFile('templates', 'review-note.md'), 'utf8');
  return fillTemplate(noteTemplate, noteSlots(task, findings));
}

/**
 * Runs `plan` under the task's lock with the current ledger state and appends the events it
 * returns in one write, then regenerates the note. Returns the plan's result and the new state.
 */
export async function updateLedger<T extends { events: readonly ReviewEvent[] }>(
  root: string,
  task: string,
  plan: (state: LedgerState) => T | Promise<T>,
): Promise<{ result: T; findings: ReviewFinding[] }> {
  // Every target is checked before the lock file is even created (a symlinked folder or ledger).
  const abs = repoTarget(root, reviewLedgerPath(task));
  repoTarget(root, reviewNotePath(task));
  return withLock(repoTarget(root, reviewLockPath(task)), async () => {
    const read = await readLedgerEvents(worktreeFiles(root), task);
    const state: LedgerState = { task, events: read.events, findings: foldEvents(read.events), diagnostics: read.diagnostics };
    const result = await plan(state);
    let findings = [...state.findings];
    if (result.events.length > 0) {
      const current = (await readIfExists(abs))?.toString('utf8') ?? '';
      refuseInvalidEvents(task, result.events);
      await writeRepoFile(root, reviewLedgerPath(task), appendText(current, result.events));
      findings = foldEvents([...read.events, ...result.events]);
    }
    // The note is regenerated even when nothing was appended: a run killed between the ledger
    // append and the note rewrite left a stale note, and any later review command repairs it.
    // A task with no ledger yet gets no note from a command that appended nothing.
    // Not fsynced (as compiled Markdown, ARCHITECTURE.md "Writes"): the note is regenerated from the ledger by any
    // later review command, and an import writes one per pull request.
    if (read.exists || result.events.length > 0)
      await writeRepoFileIfChanged(root, reviewNotePath(task), renderNote(task, findings), { durable: false });
    return { result, findings };
  });
}

/** Regenerates a task's note from its ledger (e.g. after a merge). */
export async function regenerateNote(root: string, task: string): Promise<'created' | 'updated' | 'unchanged'> {
  repoTarget(root, reviewNotePath(task));
  return withLock(repoTarget(root, reviewLockPath(task)), async () => {
    const read = await readLedgerEvents(worktreeFiles(root), task);
    return writeRepoFileIfChanged(root, reviewNotePath(task), renderNote(task, foldEvents(read.events)));
  });
}

/**
 * Rewrites the task file with what `plan` makes of the current one (null: none yet), under the
 * task's lock (`durable: false` skips the fsyncs, for a file its writer recreates when missing). An
 * invalid task file is left as it is: its errors come back and nothing is written.
 */
export async function updateTaskFile(
  root: string,
  task: string,
  plan: (current: TaskFile | null) => TaskFile,
  options: { readonly durable?: boolean } = {},
): Promise<{ ok: true; task: TaskFile } | { ok: false; diagnostics: Diagnostic[] }> {
  return withLock(repoTarget(root, reviewLockPath(task)), async () => {
    const checked = await readTaskChecked(worktreeFiles(root), task);
    if (hasErrors(checked.diagnostics)) return { ok: false, diagnostics: checked.diagnostics };
    const next = plan(checked.task);
    await writeRepoFile(root, taskPath(task), renderTaskFile(next), options);
    return { ok: true, task: next };
  });
}
