/** Pure JSONL splitting and parsing. Keeps each line's raw text so writers can preserve it byte for byte. */
import { positionAt } from './text-position.js';

export interface RawLine {
  /** 1-based line number in the file. */
  readonly line: number;
  /** The line's content without its terminator (and without a leading BOM on line 1). */
  readonly text: string;
  /** The terminator as found: `\n`, `\r\n`, or `` for a last line without one. */
  readonly eol: string;
}

export type ParsedLine =
  | { readonly kind: 'blank'; readonly raw: RawLine }
  | { readonly kind: 'json'; readonly raw: RawLine; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly raw: RawLine; readonly reason: string };

const BOM = '\uFEFF';

/** Splits text into lines, remembering each terminator; a UTF-8 BOM at the start is dropped. */
export function splitLines(text: string): RawLine[] {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  const lines: RawLine[] = [];
  let start = 0;
  let lineNo = 1;
  while (start < source.length) {
    const nl = source.indexOf('\n', start);
    if (nl === -1) {
      lines.push({ line: lineNo, text: source.slice(start), eol: '' });
      break;
    }
    const crlf = nl > start && source.charCodeAt(nl - 1) === 13;
    lines.push({ line: lineNo, text: source.slice(start, crlf ? nl - 1 : nl), eol: crlf ? '\r\n' : '\n' });
    start = nl + 1;
    lineNo += 1;
  }
  return lines;
}

/** Parses one raw line; never throws. */
export function parseLine(raw: RawLine): ParsedLine {
  if (raw.text.trim() === '') return { kind: 'blank', raw };
  let value: unknown;
  try {
    value = JSON.parse(raw.text) as unknown;
  } catch (error) {
    return { kind: 'invalid', raw, reason: jsonErrorReason(error) };
  }
  const dup = duplicateKeyIn(raw.text, value);
  return dup === null ? { kind: 'json', raw, value } : { kind: 'invalid', raw, reason: duplicateKeyReason(dup) };
}

export function parseJsonl(text: string): ParsedLine[] {
  return splitLines(text).map(parseLine);
}

/** A short reason for a JSON.parse failure, without V8's position noise duplicated. */
export function jsonErrorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Newer V8 (Node 22.12+, 24) appends " (line L column C)" after "at position N": drop it, so the
  // reason reads the same on every Node line and the position is not said twice.
  const once = message.replace(/ \(line \d+ column \d+\)$/, '');
  // V8 quotes the offending text, newlines included; keep every diagnostic on one line.
  return `invalid JSON: ${once.replace(/\r?\n/g, '\\n')}`;
}

export type JsonDocument =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly line: number; readonly column: number; readonly reason: string };

/**
 * Parses a whole JSON document (BOM dropped). On failure, the 1-based line and column come from
 * V8's "at position N" when it gives one (else 1:0 — the document as a whole). Pure.
 */
export function parseJsonDocument(text: string): JsonDocument {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(source) as unknown;
  } catch (error) {
    const reason = jsonErrorReason(error);
    const at = /at position (\d+)/.exec(reason);
    if (!at) return { ok: false, line: 1, column: 0, reason };
    return { ok: false, ...positionAt(source, Number(at[1])), reason: reason.replace(/ in JSON at position \d+/, '') };
  }
  const dup = duplicateKeyIn(source, value);
  if (dup === null) return { ok: true, value };
  return { ok: false, ...positionAt(source, dup.offset), reason: duplicateKeyReason(dup) };
}

/** Where a key repeats inside one object: its offset (of the opening quote) and its decoded name. */
export interface DuplicateKey {
  readonly offset: number;
  readonly key: string;
}

export function duplicateKeyReason(dup: DuplicateKey): string {
  // JSON.parse keeps the last of two equal keys; a reader that trusted that would let a later
  // `"constraints": []` silently erase the entries before it (docs/hooks.md, "fail closed").
  return `invalid JSON: duplicate key ${JSON.stringify(dup.key)} in one object (JSON.parse would silently keep only the last one)`;
}

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * duplicateKey for a text JSON.parse has turned into `value`, in the time of a count on a text
 * without one. JSON.parse keeps one property per distinct key and drops nothing else, so the text
 * repeats a key exactly when it holds more keys than `value` does; the scan that names the key
 * runs only then. Pure.
 */
export function duplicateKeyIn(text: string, value: unknown): DuplicateKey | null {
  return keysInText(text) === keysInValue(value) ? null : duplicateKey(text);
}

/**
 * The keys written in a valid JSON text: every `:` whose nearest character before it (past JSON
 * whitespace) is a quote that ends a string. A `:` inside a string never is: an unescaped quote
 * cannot stand inside one, and an escaped one has an odd run of backslashes before it.
 */
function keysInText(text: string): number {
  let keys = 0;
  for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1)) {
    let k = i - 1;
    let ch = text.charCodeAt(k);
    while (ch === 32 || ch === 9 || ch === 10 || ch === 13) ch = text.charCodeAt(--k);
    if (ch !== QUOTE) continue;
    let slashes = 0;
    while (text.charCodeAt(k - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) keys += 1;
  }
  return keys;
}

/** The properties of every object in a parsed JSON value, counted without recursion (JSON.parse accepts any depth). */
function keysInValue(value: unknown): number {
  let keys = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) pending.push(item);
      continue;
    }
    const own = Object.keys(v);
    keys += own.length;
    for (const k of own) pending.push((v as Record<string, unknown>)[k]);
  }
  return keys;
}

/**
 * The first key that appears twice in one object of a text JSON.parse accepted, or null. One
 * linear pass; keys are compared decoded (`"a"` and `"\u0061"` are the same key). Pure.
 */
export function duplicateKey(text: string): DuplicateKey | null {
  // Cheap exit: a document with fewer than two keys cannot repeat one.
  if (text.indexOf(':') === text.lastIndexOf(':')) return null;
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      // Find the closing quote, skipping escapes.
      let end = i + 1;
      let escaped = false;
      for (;;) {
        end = text.indexOf('"', end);
        if (end === -1) return null; // not valid JSON; JSON.parse reports it
        let slashes = 0;
        for (let k = end - 1; text.charCodeAt(k) === BACKSLASH; k -= 1) slashes += 1;
        if (slashes % 2 === 0) break;
        escaped = true;
        end += 1;
      }
      const keys = stack[stack.length - 1];
      if (expectKey && keys) {
        const raw = text.slice(i + 1, end);
        const key = escaped || raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (keys.has(key)) return { offset: i, key };
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (ch === 123 /* { */) {
      stack.push(new Set());
      expectKey = true;
    } else if (ch === 91 /* [ */) {
      stack.push(null);
    } else if (ch === 125 /* } */ || ch === 93 /* ] */) {
      stack.pop();
    } else if (ch === 44 /* , */) {
      expectKey = stack[stack.length - 1] !== null && stack.length > 0;
    }
  }
  return null;
}

/** Joins lines back; the output ends with a newline unless it is empty. */
export function joinLines(lines: readonly { text: string; eol: string }[]): string {
  let out = '';
  for (let i = 0; i < lines.length; i += 1) {
    const l = lines[i]!;
    out += l.text + (l.eol === '' && i < lines.length - 1 ? '\n' : l.eol);
  }
  if (out !== '' && !out.endsWith('\n')) out += '\n';
  return out;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
