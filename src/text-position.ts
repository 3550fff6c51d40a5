/**
 * Lines and columns in text, and the line of a key in pretty JSON: written once here instead of
 * in every reader that reports a position. A leaf module (no imports). Offsets are UTF-16 code
 * units (JavaScript string indices); lines and columns are 1-based, as diagnostics are
 * (src/diagnostics.ts).
 */

/** The 1-based line of `offset` (the number of line feeds before it, plus one). Pure. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** The 1-based line and column of `offset`. Pure. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  // lastIndexOf clamps a negative start to 0, so offset 0 must not look at text[0].
  const lineStart = offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
  return { line: lineAt(text, offset), column: offset - lineStart + 1 };
}

/**
 * The 1-based line where `"<key>": <value as JSON>` is first written in pretty-printed JSON (the
 * form json-stable writes: one space after the colon), or `fallback` when it is not there. Pure.
 */
export function jsonKeyLine(text: string, key: string, value: string, fallback = 1): number {
  const at = text.indexOf(`${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return at === -1 ? fallback : lineAt(text, at);
}
