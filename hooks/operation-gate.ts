/**
 * Judging the commit of a merge, rebase, cherry-pick or revert (docs/hooks.md, "What a change can
 * and cannot do to its own judgment"). Such a commit carries over content that was judged when
 * its parents were made, so only what it introduces blocks:
 *  - a constraint hit blocks unless a parent's version of the same file has a hit of the same
 *    constraint on a line with the same text (then it is inherited: a warning that says so);
 *  - any other problem in a file blocks unless the staged file is byte-identical to a parent's
 *    version of it (the problem came with that parent);
 *  - compiled-output drift always blocks: it is about the combination the commit makes.
 * The parents' versions are judged with the same pure gate and the staged constraint index.
 */
import { diagnostic, sortDiagnostics, type Diagnostic } from '../src/diagnostics.js';
import { hasConstraintFiles, parseConstraintSet } from '../src/constraints/constraint-set.js';
import { parseConfig } from '../src/config.js';
import { readObjects } from '../src/git/core.js';
import { operationParents, type Operation, type OperationParent } from '../src/git/hooks.js';
import { Layout } from '../src/layout.js';
import type { ConstraintIndex } from '../src/types.js';
import { runGate } from './gate.js';
import { constraintTexts, type Collected } from './sources.js';

/** A parent's version of each file the diagnostics name (null: the file is not in that parent). */
export interface ParentFiles {
  readonly parent: OperationParent;
  readonly files: ReadonlyMap<string, string | null>;
}

export interface OperationJudgment {
  readonly operation: Operation;
  /** Staged text of the changed files (a file absent here is unchanged against HEAD). */
  readonly staged: ReadonlyMap<string, string>;
  readonly parents: readonly ParentFiles[];
  /** The staged constraint index (null when absent or invalid: then no hit can be matched to a parent). */
  readonly index: ConstraintIndex | null;
  readonly skip: ReadonlySet<string>;
  readonly budgetMs: number;
}

const isConstraintRule = (ruleId: string): boolean => ruleId.startsWith('constraint/');
const BLOCKING_NOTE = /^(active constraint: this blocks|bypass: )/;

/** What identifies a constraint hit across versions of a file: the constraint and the hit line's text. Pure. */
function hitKey(d: Diagnostic, lines: readonly string[]): string {
  const text = d.line > 0 ? (lines[d.line - 1] ?? '') : `\0${d.message}`;
  return `${d.ruleId}\0${text}`;
}

const splitText = (text: string): string[] => text.split(/\r?\n/);
const short = (p: OperationParent): string => `${p.name} (${p.sha.slice(0, 12)})`;

/** Splits the errors of an operation's commit into introduced (still errors) and inherited (warnings). Pure. */
export async function judgeOperation(diagnostics: readonly Diagnostic[], j: OperationJudgment): Promise<Diagnostic[]> {
  const hitsByParent = new Map<OperationParent, Map<string, Set<string>>>();
  const parentHits = async (pf: ParentFiles, file: string): Promise<Set<string>> => {
    let byFile = hitsByParent.get(pf.parent);
    if (!byFile) hitsByParent.set(pf.parent, (byFile = new Map()));
    let keys = byFile.get(file);
    if (keys) return keys;
    keys = new Set();
    const text = pf.files.get(file) ?? null;
    if (text !== null && j.index !== null) {
      // Whole-file: every hit in the parent's version was that parent's to answer for.
      const hits = await runGate(j.index, [{ path: file, text }], {
        budgetMs: j.budgetMs,
        skip: j.skip,
        bypass: null,
        indexFile: Layout.constraintIndex,
        indexText: '',
      });
      const lines = splitText(text);
      for (const h of hits) keys.add(hitKey(h, lines));
    }
    byFile.set(file, keys);
    return keys;
  };
  const parentNames = j.parents
    .map((p) => p.parent.name)
    .filter((n, i, all) => all.indexOf(n) === i)
    .join(', ');
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    if (d.severity !== 'error') {
      out.push(d);
      continue;
    }
    let from: OperationParent | null = null;
    const staged = j.staged.get(d.file);
    if (isConstraintRule(d.ruleId)) {
      if (staged !== undefined) {
        const key = hitKey(d, splitText(staged));
        for (const pf of j.parents) {
          if ((await parentHits(pf, d.file)).has(key)) {
            from = pf.parent;
            break;
          }
        }
      }
    } else if (d.ruleId !== 'compiler/drift') {
      // Unchanged against HEAD, or identical to another parent's version: the problem came with it.
      const head = j.parents.find((pf) => pf.parent.name === 'HEAD')?.parent ?? null;
      from = staged === undefined ? head : (j.parents.find((pf) => pf.files.get(d.file) === staged)?.parent ?? null);
    }
    if (from === null) {
      out.push({
        ...d,
        notes: [`introduced by this ${j.operation}: in neither parent's version (${parentNames}), so it blocks`, ...(d.notes ?? [])],
      });
      continue;
    }
    const notes = (d.notes ?? []).filter((n) => !BLOCKING_NOTE.test(n));
    out.push(
      diagnostic({
        ...d,
        severity: 'warning',
        notes: [
          `inherited from ${short(from)}: its version of ${d.file} has it too, so this ${j.operation} does not block on it; fix it in a commit of its own`,
          ...notes,
        ],
      }),
    );
  }
  return sortDiagnostics(out);
}

/** Reads what judgeOperation needs (staged texts, parents' versions of the named files) and applies it. */
export async function judgeOperationCommit(
  root: string,
  operation: Operation,
  env: NodeJS.ProcessEnv,
  diagnostics: readonly Diagnostic[],
  collected: Collected,
  skip: ReadonlySet<string>,
): Promise<Diagnostic[]> {
  if (!diagnostics.some((d) => d.severity === 'error')) return [...diagnostics];
  const parents = await operationParents(root, operation, env);
  const staged = new Map(collected.files.map((f) => [f.path, f.data.toString('utf8')]));
  const named = [...new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => d.file))].filter((f) => f !== '');
  const objects = await readObjects(
    root,
    parents.flatMap((p) => named.map((f) => `${p.sha}:${f}`)),
  );
  const parentFiles: ParentFiles[] = parents.map((parent) => ({
    parent,
    files: new Map(named.map((f) => [f, objects.get(`${parent.sha}:${f}`)?.toString('utf8') ?? null])),
  }));
  const after = constraintTexts(collected).after;
  const parsed = hasConstraintFiles(after) ? parseConstraintSet(after) : null;
  const budgetMs = collected.configText === null ? 250 : parseConfig(collected.configText).config.matchBudgetMs;
  return judgeOperation(diagnostics, { operation, staged, parents: parentFiles, index: parsed?.ok ? parsed.index : null, skip, budgetMs });
}
