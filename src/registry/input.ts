/** Parsing `findings add` input: one JSON object, a JSON array of objects, or JSON lines. Pure. */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { parseJsonl, parseJsonDocument } from '../jsonl.js';

/** The values to add, or one diagnostic saying where the input is not JSON. */
export function parseAddInput(text: string, source: string): { values: unknown[] } | { diagnostic: Diagnostic } {
  if (text.replace(/^\uFEFF/, '').trim() === '') return { values: [] };
  const doc = parseJsonDocument(text);
  if (doc.ok) return { values: Array.isArray(doc.value) ? doc.value : [doc.value] };
  // Lines copied out of another registry are JSON lines: accept them when every line parses.
  const lines = parseJsonl(text).filter((l) => l.kind !== 'blank');
  if (lines.length > 1 && lines.every((l) => l.kind === 'json')) return { values: lines.map((l) => (l.kind === 'json' ? l.value : null)) };
  return {
    diagnostic: diagnostic({ file: source, line: doc.line, column: doc.column, ruleId: 'registry/invalid-json', message: doc.reason }),
  };
}
