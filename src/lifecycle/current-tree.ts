/**
 * Full mode over the current tree: every tracked file at HEAD that a constraint applies to
 * (docs/contracts/compiler.md#gate-semantics: a full mode enumerates the repository). Activation
 * needs zero hits here ("Replay qualification": zero existing violations with the exact pattern).
 */
import { readObjects, treeEntries } from '../git/core.js';
import type { Hit } from '../match/detector.js';
import { evaluate } from '../match/detector.js';
import { compareStrings } from '../diagnostics.js';
import { isBinary, type Prepared } from './replay.js';

export interface TreeViolation extends Hit {
  readonly path: string;
  /** The text of the hit's first line (what a baseline records, as a hash). */
  readonly lineText: string;
}

export interface TreeScan {
  readonly files: number;
  readonly violations: TreeViolation[];
  readonly errors: { path: string; message: string }[];
}

/** Evaluates a prepared constraint on every applicable file of `commit`'s tree. */
export async function scanTree(
  root: string,
  commit: string,
  prepared: Extract<Prepared, { ok: true }>,
  budgetMs: number,
): Promise<TreeScan> {
  const entries = (await treeEntries(root, commit)).filter((e) => e.mode !== '160000' && prepared.applies(e.path));
  const blobs = await readObjects(
    root,
    entries.map((e) => e.sha),
  );
  const violations: TreeViolation[] = [];
  const errors: { path: string; message: string }[] = [];
  let files = 0;
  for (const e of [...entries].sort((a, b) => compareStrings(a.path, b.path))) {
    const data = blobs.get(e.sha) ?? null;
    if (data === null || isBinary(data)) continue;
    files += 1;
    const text = data.toString('utf8');
    const r = evaluate(prepared.matcher, text, { budgetMs });
    if (r.error !== undefined) errors.push({ path: e.path, message: r.error });
    else if (r.hits.length > 0) {
      const lines = text.split('\n');
      for (const h of r.hits) violations.push({ ...h, path: e.path, lineText: lines[h.line - 1] ?? '' });
    }
  }
  return { files, violations, errors };
}
