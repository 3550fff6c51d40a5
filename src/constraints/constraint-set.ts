/**
 * The one constraint source (docs/compiler.md "The extended index"): `.agents/constraints/index.json`
 * (upstream's format, which the agentops gate reads too) and `.agents/constraints/extended.json`
 * (the entries upstream's gate cannot take as they are) read as ONE set of entries by id. Every
 * reader — the gate in every mode, the stricter-of judgment, the lifecycle commands, explain,
 * SARIF/markdown, validate, compile — parses the pair here, so an entry is the same constraint
 * whichever file holds it. Each entry remembers its file (`origin`, in memory only) for
 * diagnostics (file and line) and for writers, which put it back where it was. Pure.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { stableStringify } from '../json-stable.js';
import { Layout } from '../layout.js';
import { CONSTRAINT_KEY_ORDER, type ConstraintEntry, type ConstraintIndex, type ConstraintOrigin } from '../types.js';
import { compareStrings } from '../diagnostics.js';
import { indexEntryLine, parseConstraintIndex, parseExtendedIndex, serializeConstraintIndex } from './index-file.js';
import { writtenEntry } from './shape.js';

/** The two files' texts as one source read them (null: the file is absent there). */
export interface ConstraintTexts {
  readonly index: string | null;
  readonly extended: string | null;
}

export const NO_CONSTRAINT_TEXTS: ConstraintTexts = { index: null, extended: null };

/** The repository path of each file of the set. */
export const CONSTRAINT_FILES: Readonly<Record<ConstraintOrigin, string>> = {
  index: Layout.constraintIndex,
  extended: Layout.extendedIndex,
};

/** The file that holds an entry. */
export const originOf = (c: ConstraintEntry): ConstraintOrigin => c.origin ?? 'index';
export const fileOf = (c: ConstraintEntry): string => CONSTRAINT_FILES[originOf(c)];

export { isConstraintFile } from '../layout.js';

/** True when at least one file of the set exists. */
export const hasConstraintFiles = (texts: ConstraintTexts): boolean => texts.index !== null || texts.extended !== null;

/** True when both sources hold the same two texts. */
export const sameConstraintTexts = (a: ConstraintTexts, b: ConstraintTexts): boolean => a.index === b.index && a.extended === b.extended;

export type SetParse =
  | { readonly ok: true; readonly index: ConstraintIndex }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * Both files as one index: index.json's entries, then extended.json's (marked `origin:
 * 'extended'`). An absent file holds no entries; an invalid one makes the whole set invalid (the
 * gate fails closed), and so does an id held by both files. Pure.
 */
export function parseConstraintSet(texts: ConstraintTexts): SetParse {
  const index = texts.index === null ? null : parseConstraintIndex(texts.index, Layout.constraintIndex);
  const extended = texts.extended === null ? null : parseExtendedIndex(texts.extended, Layout.extendedIndex);
  const problems = [...(index?.ok === false ? index.diagnostics : []), ...(extended?.ok === false ? extended.diagnostics : [])];
  if (problems.length > 0) return { ok: false, diagnostics: problems };
  const fromIndex = index?.ok ? index.index.constraints : [];
  const fromExtended = extended?.ok ? extended.index.constraints : [];
  const ids = new Set(fromIndex.map((c) => c.id));
  const both = fromExtended.filter((c) => ids.has(c.id));
  if (both.length > 0)
    return {
      ok: false,
      diagnostics: both.map((c) =>
        diagnostic({
          file: Layout.extendedIndex,
          line: indexEntryLine(texts.extended ?? '', c.id),
          ruleId: 'constraint-index/duplicate-id',
          message: `constraint id "${c.id}" is in both ${Layout.constraintIndex} and ${Layout.extendedIndex}; an id belongs to one of them`,
        }),
      ),
    };
  return { ok: true, index: { schema_version: 1, constraints: [...fromIndex, ...fromExtended] } };
}

/** Where an entry is written: its file and the line of its `"id"` in that file's text (1 when not found). */
export function entryLocation(texts: ConstraintTexts, c: ConstraintEntry): { readonly file: string; readonly line: number } {
  const origin = originOf(c);
  return { file: CONSTRAINT_FILES[origin], line: indexEntryLine(texts[origin] ?? '', c.id) };
}

/** The canonical bytes of extended.json: as index.json's, with a structural detector's own keys kept. */
export function serializeExtendedIndex(constraints: readonly ConstraintEntry[]): string {
  const entries = [...constraints].sort((a, b) => compareStrings(a.id, b.id)).map((c) => writtenEntry({ ...c, origin: 'extended' }));
  return stableStringify({ schema_version: 1, constraints: entries }, CONSTRAINT_KEY_ORDER);
}

/**
 * The two files' canonical texts for a set of entries, each entry in the file its `origin` names.
 * extended.json is null when no entry belongs there (a writer then leaves an absent file absent).
 */
export function serializeConstraintSet(index: ConstraintIndex): { readonly index: string; readonly extended: string | null } {
  const extended = index.constraints.filter((c) => originOf(c) === 'extended');
  const upstream = index.constraints.filter((c) => originOf(c) === 'index');
  return {
    index: serializeConstraintIndex({ schema_version: 1, constraints: upstream }),
    extended: extended.length === 0 ? null : serializeExtendedIndex(extended),
  };
}
