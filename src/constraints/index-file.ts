/** Reading and writing `.agents/constraints/index.json` — shared by the compiler, the gate and the lifecycle commands. */
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { stableStringify } from '../json-stable.js';
import { parseJsonDocument } from '../jsonl.js';
import { Layout } from '../layout.js';
import { validate } from '../schema.js';
import { jsonKeyLine, lineAt } from '../text-position.js';
import { CONSTRAINT_KEY_ORDER, type ConstraintEntry, type ConstraintIndex, type ConstraintOrigin } from '../types.js';
import { normaliseIndex, readGoNulls, writtenEntry } from './shape.js';

export type IndexParse =
  | { readonly ok: true; readonly index: ConstraintIndex }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * Parses and schema-checks index text of any age (src/constraints/shape.ts: the current shape,
 * upstream's, or an earlier release's `version: 1` with `c-` ids) into the current in-memory
 * shape. Pure. Duplicate ids are an error too.
 */
export function parseConstraintIndex(text: string, file: string = Layout.constraintIndex): IndexParse {
  return parseIndexText(text, file, 'index');
}

/** parseConstraintIndex for `.agents/constraints/extended.json` (its own schema; entries marked `origin: 'extended'`). Pure. */
export function parseExtendedIndex(text: string, file: string = Layout.extendedIndex): IndexParse {
  return parseIndexText(text, file, 'extended');
}

function parseIndexText(text: string, file: string, origin: ConstraintOrigin): IndexParse {
  const doc = parseJsonDocument(text);
  if (!doc.ok)
    return {
      ok: false,
      diagnostics: [diagnostic({ file, line: doc.line, column: doc.column, ruleId: 'constraint-index/invalid-json', message: doc.reason })],
    };
  // Go writes an empty list as null, and reads null as the zero value: so does this reader.
  const value = readGoNulls(doc.value);
  const problems = validate(origin === 'extended' ? 'constraint-index-extended' : 'constraint-index', value);
  if (problems.length > 0) {
    return { ok: false, diagnostics: problems.map((message) => diagnostic({ file, line: 1, ruleId: 'constraint-index/schema', message })) };
  }
  const index = normaliseIndex(value as Record<string, unknown>, origin);
  const seen = new Set<string>();
  const dups: Diagnostic[] = [];
  for (const c of index.constraints) {
    if (seen.has(c.id))
      dups.push(
        diagnostic({ file, line: 1, ruleId: 'constraint-index/duplicate-id', message: `constraint id "${c.id}" appears more than once` }),
      );
    seen.add(c.id);
  }
  return dups.length > 0 ? { ok: false, diagnostics: dups } : { ok: true, index };
}

/**
 * The canonical bytes of an index, as upstream's strict decoder accepts them: `schema_version`,
 * entries sorted by id holding only upstream's keys in its order, final newline.
 */
export function serializeConstraintIndex(index: ConstraintIndex): string {
  const constraints = [...index.constraints].sort((a, b) => compareStrings(a.id, b.id)).map(writtenEntry);
  return stableStringify({ schema_version: 1, constraints }, CONSTRAINT_KEY_ORDER);
}

export const EMPTY_INDEX: ConstraintIndex = { schema_version: 1, constraints: [] };

/** Enforcement that goes with a status (docs/contracts/compiler.md#lifecycle). */
export function enforcementFor(status: ConstraintEntry['status']): ConstraintEntry['enforcement_mode'] {
  return status === 'active' ? 'block' : status === 'shadow' ? 'warn' : 'off';
}

/**
 * The 1-based line of an entry's `"id": "<id>"` in index text (or of its earlier `c-<id>`
 * spelling), else 1; also in the compact form upstream's bash compiler writes (`"id":"<id>"`). Pure.
 */
export function indexEntryLine(text: string, id: string): number {
  for (const v of [id, `c-${id}`]) {
    if (text.includes(`"id": ${JSON.stringify(v)}`)) return jsonKeyLine(text, 'id', v);
    const compact = text.indexOf(`"id":${JSON.stringify(v)}`);
    if (compact !== -1) return lineAt(text, compact);
  }
  return 1;
}
