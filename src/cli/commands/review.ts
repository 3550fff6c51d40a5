/**
 * `findings review …`: the review ledger (contract: docs/contracts/review-ledger.md). One module per
 * group of subcommands in ./review/; each only parses argv, calls the pure planners in
 * src/review/ and prints. Every write goes through src/review/store.ts (per-task lock, one append,
 * note regenerated; the task file under the same lock).
 */
import { defineCommandGroup } from '../define-command.js';
import { ceoRejectSubcommand, producerSubcommands } from './review/file.js';
import { resolveSubcommand, submitSubcommand } from './review/resolve.js';
import { noteSubcommand, showSubcommand } from './review/show.js';
import { taskSubcommand } from './review/task.js';
import { passSubcommand, waiveSubcommand } from './review/verdicts.js';

export const run = defineCommandGroup('review', 'The review ledger: file, resolve, submit, pass, waive, show.', {
  // The order `findings review --help` lists them in.
  subcommands: [
    taskSubcommand,
    ...producerSubcommands,
    ceoRejectSubcommand,
    resolveSubcommand,
    submitSubcommand,
    passSubcommand,
    waiveSubcommand,
    showSubcommand,
    noteSubcommand,
  ],
  missing: 'give a subcommand: task, fail, pr-fail, request-changes, ceo-reject, resolve, submit, pass, waive, show, note',
});
