/**
 * `findings validate` rule `review/stale-note`: a task's note `.agents/reviews/<task>.md` is
 * derived from its ledger, and must say what the ledger says. A run killed between the ledger
 * append and the note rewrite leaves a note saying "1 open" over a ledger where the finding is
 * addressed; validate (and pre-commit, on the staged versions) reports it with the fix command.
 * A note without a ledger is left alone (nothing to compare with).
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { SAFE_ID } from '../layout.js';
import type { ValidateContext, ValidateTarget } from '../validate/types.js';
import { foldEvents, readLedgerEvents } from './ledger.js';
import { renderNote } from './store.js';

export async function validateNoteTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const t of targets) {
    const base = t.file.slice(t.file.lastIndexOf('/') + 1);
    const task = base.slice(0, -'.md'.length);
    if (!SAFE_ID.test(task)) continue;
    const read = await readLedgerEvents(ctx.files, task);
    if (!read.exists) continue;
    const findings = foldEvents(read.events);
    if (renderNote(task, findings) === t.text) continue;
    const open = findings.filter((f) => f.status === 'open').length;
    out.push(
      diagnostic({
        file: t.file,
        line: 1,
        ruleId: 'review/stale-note',
        message:
          `does not match its ledger ${t.file.replace(/\.md$/, '.jsonl')} (${open} ` +
          `open finding${open === 1 ? '' : 's'} there); run \`findings review note ${task}\``,
      }),
    );
  }
  return out;
}
