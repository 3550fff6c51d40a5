/**
 * The ledger is append-only (docs/contracts/review-ledger.md#append-only: no round overwrites an earlier one).
 * Status is folded from the lines, so deleting a `filed` line — or
 * emptying the file — would silently close findings and open the push gate. This check compares
 * two versions of the repository: every line a ledger had before must still be there after.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { splitLines } from '../jsonl.js';
import { Layout } from '../layout.js';
import { readMany, type RepoFiles } from '../repo-files.js';

const LEDGER = /^\.agents\/reviews\/[^/]+\.jsonl$/;

/** Lines of `before` missing from `after`, as 1-based line numbers of `before`. Pure. */
export function missingLines(before: string, after: string): number[] {
  const kept = new Set(splitLines(after).map((l) => l.text.trim()));
  return splitLines(before)
    .filter((l) => l.text.trim() !== '' && !kept.has(l.text.trim()))
    .map((l) => l.line);
}

/** Errors for every ledger line (or ledger file) present in `before` and gone in `after`. */
export async function appendOnlyViolations(before: RepoFiles, after: RepoFiles, label: string): Promise<Diagnostic[]> {
  const paths = (await before.list(Layout.reviewsDir)).filter((p) => LEDGER.test(p));
  if (paths.length === 0) return [];
  const [old, now] = await Promise.all([readMany(before, paths), readMany(after, paths)]);
  const out: Diagnostic[] = [];
  for (const file of paths) {
    const was = old.get(file)?.toString('utf8') ?? '';
    const is = now.get(file);
    if (is === null || is === undefined) {
      out.push(
        diagnostic({
          file,
          line: 0,
          ruleId: 'review/ledger-rewritten',
          message: `the review ledger was deleted since ${label}; ledgers are append-only (restore it)`,
        }),
      );
      continue;
    }
    const missing = missingLines(was, is.toString('utf8'));
    if (missing.length > 0) {
      out.push(
        diagnostic({
          file,
          line: 0,
          ruleId: 'review/ledger-rewritten',
          message:
            `${missing.length} line(s) the ledger had at ${label} are gone (lines ${missing.join(', ')} ` +
            `there); ledgers are append-only: restore them, and record changes as new events`,
        }),
      );
    }
  }
  return out;
}
