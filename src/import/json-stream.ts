/**
 * A streaming reader of review exports (docs/import.md, "What it reads"): every JSON object that
 * sits at the top level or inside arrays only, in the order written, parsed one at a time. That
 * one rule covers every shape `gh api --paginate` prints — one array, several arrays back to back
 * (pagination without `--slurp`, docs/stack-pitfalls.md#15), an array of arrays (`--slurp`) — and
 * JSON Lines or objects back to back (a GraphQL page per object). The file is never held whole:
 * only the bytes of the object being read are kept, so memory stays flat whatever the export's
 * length (an object larger than `maxObjectBytes` is an error).
 *
 * No streaming JSON library is used: the job is only to find where each object ends (strings,
 * escapes and nesting), and JSON.parse does the parsing; the libraries that split concatenated
 * values tokenize every character in JavaScript, several times slower on a 40 MB export.
 */

/** One object read from the export, with the line it starts on (1-based). */
export interface ExportObject {
  readonly value: unknown;
  readonly line: number;
}

/** Something in the export that is not an object: reported with its line, never fatal by itself. */
export interface ExportProblem {
  readonly line: number;
  readonly message: string;
}

export type ExportItem = ({ readonly kind: 'object' } & ExportObject) | ({ readonly kind: 'problem' } & ExportProblem);

/** The export cannot be read further (not JSON, or an object too large). */
export class ExportSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** The default ceiling on one object: a GraphQL page of 20 pull requests with long threads stays far below it. */
export const MAX_OBJECT_BYTES = 32 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const NEWLINE = 0x0a;
const COMMA = 0x2c;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Reads `chunks` (a file or standard input) and yields each object at array-only depth, and a
 * problem for each scalar there (a number or string where an object belongs). Throws
 * ExportSyntaxError on bytes that cannot be JSON. Pure apart from reading the chunks.
 */
export async function* readExportObjects(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: { readonly maxObjectBytes?: number } = {},
): AsyncGenerator<ExportItem> {
  const maxBytes = options.maxObjectBytes ?? MAX_OBJECT_BYTES;
  let line = 1;
  /** Arrays open around the current position (objects are read whole, so only arrays nest here). */
  let arrays = 0;
  /** The object being read: its chunks so far, its start line, and the scanner's state inside it. */
  let parts: Buffer[] = [];
  let partBytes = 0;
  let objectLine = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** A scalar at array-only depth (`1`, `"x"`, `null`): its start line and bytes until a separator. */
  let scalarLine = 0;
  let first = true;

  for await (const raw of chunks) {
    let buf = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    if (first) {
      first = false;
      // A UTF-8 byte order mark before the first value (Windows tools write one).
      if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
    }
    let i = 0;
    const n = buf.length;
    // Positions of the next quote and backslash in this chunk (-1: none left; -2: not looked for yet).
    let nextQuote = -2;
    let nextBackslash = -2;
    while (i < n) {
      if (depth > 0) {
        // Inside an object: find its end, keeping strings and escapes apart from structure.
        const start = i;
        for (; i < n; i++) {
          if (inString) {
            if (escaped) {
              escaped = false;
              continue;
            }
            // Most of an export is string content: jump to the next quote or backslash (native
            // search; each position is remembered until passed, so no byte is searched twice).
            if (nextQuote !== -1 && nextQuote < i) nextQuote = buf.indexOf(QUOTE, i);
            if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = buf.indexOf(BACKSLASH, i);
            const quote = nextQuote === -1 ? n : nextQuote;
            const backslash = nextBackslash === -1 ? n : nextBackslash;
            i = Math.min(quote, backslash, n - 1);
            if (i === backslash) escaped = true;
            else if (i === quote) inString = false;
            continue;
          }
          const c = buf[i]!;
          if (c === QUOTE) inString = true;
          else if (c === LBRACE || c === LBRACKET) depth++;
          else if (c === RBRACE || c === RBRACKET) {
            depth--;
            if (depth === 0) {
              i++;
              break;
            }
          } else if (c === NEWLINE) line++;
        }
        parts.push(buf.subarray(start, i));
        partBytes += i - start;
        if (partBytes > maxBytes)
          throw new ExportSyntaxError(
            objectLine,
            `the object starting here is larger than ${Math.round(maxBytes / 1024 / 1024)} MB; split the export (fewer pull requests per page)`,
          );
        if (depth === 0) {
          const text = (parts.length === 1 ? parts[0]! : Buffer.concat(parts, partBytes)).toString('utf8');
          parts = [];
          partBytes = 0;
          let value: unknown;
          try {
            value = JSON.parse(text) as unknown;
          } catch (error) {
            throw new ExportSyntaxError(objectLine, `not valid JSON: ${(error as Error).message}`);
          }
          yield { kind: 'object', value, line: objectLine };
        }
        continue;
      }
      const c = buf[i]!;
      if (scalarLine > 0) {
        // Skip a scalar's characters until a separator; strings may hold separators.
        if (inString) {
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) inString = false;
          i++;
          continue;
        }
        if (c === COMMA || c === RBRACKET || isSpace(c) || c === LBRACE || c === LBRACKET) {
          yield { kind: 'problem', line: scalarLine, message: 'a value that is not an object (a comment, thread or page) was skipped' };
          scalarLine = 0;
          continue;
        }
        i++;
        continue;
      }
      if (c === NEWLINE) {
        line++;
        i++;
      } else if (isSpace(c) || c === COMMA) {
        // Commas separate array elements; JSON Lines and back-to-back arrays have none between values.
        i++;
      } else if (c === LBRACE) {
        depth = 1;
        objectLine = line;
        parts = [buf.subarray(i, i + 1)];
        partBytes = 1;
        i++;
      } else if (c === LBRACKET) {
        arrays++;
        i++;
      } else if (c === RBRACKET) {
        if (arrays === 0) throw new ExportSyntaxError(line, 'unexpected "]" with no array open');
        arrays--;
        i++;
      } else if (c === QUOTE || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
        // A string, number, true, false or null where an object belongs.
        scalarLine = line;
        inString = c === QUOTE;
        i++;
      } else {
        throw new ExportSyntaxError(line, `not JSON: unexpected ${describeByte(c)}`);
      }
    }
  }
  if (depth > 0) throw new ExportSyntaxError(objectLine, 'the export ends inside an object (a cut download?)');
  if (scalarLine > 0)
    yield { kind: 'problem', line: scalarLine, message: 'a value that is not an object (a comment, thread or page) was skipped' };
  if (arrays > 0) throw new ExportSyntaxError(line, 'the export ends inside an array (a cut download?)');
}

function describeByte(c: number): string {
  if (c < 0x20 || c === 0x7f) return `control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  if (c >= 0x80) return 'non-ASCII byte (is this a JSON file?)';
  return `"${String.fromCharCode(c)}"`;
}
