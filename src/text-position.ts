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

/**
 * Many positions in one text (a regex's hits): the line starts are found once, then each lookup
 * is a binary search instead of a count from the start. Agrees with positionAt for every offset.
 */
export class LineTable {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** The 1-based line of `offset`. */
  lineAt(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The 1-based line and column of `offset`. */
  positionAt(offset: number): { line: number; column: number } {
    const line = this.lineAt(offset);
    return { line, column: offset - this.starts[line - 1]! + 1 };
  }

  /** The text of a 1-based line, without its line feed. */
  lineText(line: number): string {
    const from = this.starts[line - 1]!;
    const next = this.starts[line];
    return this.text.slice(from, next === undefined ? this.text.length : next - 1);
  }
}
