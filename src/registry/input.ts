/** Parsing `findings add` input: one JSON object, a JSON array of objects, or JSON lines. Pure. */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { jsonErrorReason } from '../jsonl.js';

/** Line and column (1-based) of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    last = i;
  }
  return { line, column: offset - last };
}

/** The values to add, or one diagnostic saying where the input is not JSON. */
export function parseAddInput(raw: string, source: string): { values: unknown[] } | { diagnostic: Diagnostic } {
  const text = raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
  if (text.trim() === '') return { values: [] };
  try {
    const value = JSON.parse(text) as unknown;
    return { values: Array.isArray(value) ? value : [value] };
  } catch (error) {
    // Lines copied out of another registry are JSON lines: accept them when every line parses.
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
    if (lines.length > 1) {
      const values: unknown[] = [];
      for (const l of lines) {
        try {
          values.push(JSON.parse(l));
        } catch {
          values.length = 0;
          break;
        }
      }
      if (values.length === lines.length) return { values };
    }
    const m = /position (\d+)/.exec(error instanceof Error ? error.message : '');
    const at = m ? position(text, Number(m[1])) : { line: 0, column: 0 };
    return { diagnostic: diagnostic({ file: source, line: at.line, column: at.column, ruleId: 'registry/invalid-json', message: jsonErrorReason(error) }) };
  }
}
