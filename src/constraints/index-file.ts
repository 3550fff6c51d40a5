/** Reading and writing `.agents/constraints/index.json` — shared by the compiler, the gate and the lifecycle commands. */
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { stableStringify } from '../json-stable.js';
import { parseJsonDocument } from '../jsonl.js';
import { Layout } from '../layout.js';
import { validate } from '../schema.js';
import { CONSTRAINT_KEY_ORDER, type ConstraintEntry, type ConstraintIndex } from '../types.js';

export type IndexParse =
  | { readonly ok: true; readonly index: ConstraintIndex }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Parses and schema-checks index text. Pure. Duplicate ids are an error too. */
export function parseConstraintIndex(text: string, file: string = Layout.constraintIndex): IndexParse {
  const doc = parseJsonDocument(text);
  if (!doc.ok) return { ok: false, diagnostics: [diagnostic({ file, line: doc.line, column: doc.column, ruleId: 'index/invalid-json', message: doc.reason })] };
  const value = doc.value;
  const problems = validate('constraint-index', value);
  if (problems.length > 0) {
    return { ok: false, diagnostics: problems.map((message) => diagnostic({ file, line: 1, ruleId: 'index/schema', message })) };
  }
  const index = value as ConstraintIndex;
  const seen = new Set<string>();
  const dups: Diagnostic[] = [];
  for (const c of index.constraints) {
    if (seen.has(c.id)) dups.push(diagnostic({ file, line: 1, ruleId: 'index/duplicate-id', message: `constraint id "${c.id}" appears more than once` }));
    seen.add(c.id);
  }
  return dups.length > 0 ? { ok: false, diagnostics: dups } : { ok: true, index };
}

/** The canonical bytes of an index: entries sorted by id, fixed key order, final newline. */
export function serializeConstraintIndex(index: ConstraintIndex): string {
  const constraints = [...index.constraints].sort((a, b) => compareStrings(a.id, b.id));
  return stableStringify({ version: 1, constraints }, CONSTRAINT_KEY_ORDER);
}

export const EMPTY_INDEX: ConstraintIndex = { version: 1, constraints: [] };

/** Enforcement that goes with a status (finding-compiler.md, "Lifecycle"). */
export function enforcementFor(status: ConstraintEntry['status']): ConstraintEntry['enforcement_mode'] {
  return status === 'active' ? 'block' : status === 'shadow' ? 'warn' : 'off';
}
