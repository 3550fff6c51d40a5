/**
 * A fast path for the front matter the compiler writes itself and most people write by hand:
 * nested `key: value` mappings whose values are double- or single-quoted strings, small decimal
 * integers, `true`/`false`/`null`, plain words, and one-line flow lists of quoted strings.
 *
 * It answers only when it is sure to give exactly what the `yaml` package gives for the same text
 * under the options of src/frontmatter.ts (YAML 1.2 core schema, unique keys): anything outside that
 * narrow subset — a block list, a multi-line or block scalar, an anchor, a tag, a tab, a control
 * character, an escape other than `\\ \" \/ \n \t`, a duplicate or refused key, a number that is not
 * a short plain decimal, a capitalised `True` — returns null, and the caller parses with the `yaml`
 * package as before, which also produces every diagnostic. Why: parsing 1,000 artifacts with the
 * `yaml` package costs ~0.9 s in a fresh process (docs/compiler.md "Speed"); this costs ~1 % of it.
 * test/compiler/yaml-subset.test.ts holds it to the `yaml` package on fixtures and tricky YAML.
 */

type Value = string | number | boolean | null | string[] | { [key: string]: Value };

/** Characters that send the whole document to the full parser (tabs and CR included). */
const UNSAFE_CHARS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ud800-\udfff]/;
const KEY_LINE = /^([A-Za-z][A-Za-z0-9_-]*):(?: +(.*))?$/;
/** Keys the full parser refuses or resolves specially: left to it. */
const SPECIAL_KEYS = new Set(['constructor', 'prototype', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL']);
/** After a quoted or flow value: nothing, or spaces and then maybe a comment. */
const TRAILER = /^(?: +(?:#.*)?)?$/;
/** A plain scalar the core schema resolves to a string: a letter first, no `:`, `#` or flow brackets. */
const PLAIN_WORDS = /^[A-Za-z][^:#[\]{}]*$/;
const DECIMAL = /^(?:0|[1-9][0-9]{0,14})$/;
const NOT_STRINGS = new Set(['Null', 'NULL', 'True', 'TRUE', 'False', 'FALSE']);
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t' };

interface Line {
  readonly indent: number;
  readonly text: string;
}

class OutsideSubset extends Error {}
const outside = (): never => {
  throw new OutsideSubset();
};

/** The data of `yaml` (a front-matter block) when it is inside the subset, else null. Pure. */
export function parseYamlSubset(yaml: string): Record<string, unknown> | null {
  if (UNSAFE_CHARS.test(yaml)) return null;
  const lines: Line[] = [];
  for (const raw of yaml.split('\n')) {
    let indent = 0;
    while (raw.charCodeAt(indent) === 32) indent += 1;
    if (indent === raw.length || raw.charCodeAt(indent) === 35 /* # */) continue; // blank or comment line
    lines.push({ indent, text: raw.slice(indent) });
  }
  if (lines.length === 0 || lines[0]!.indent !== 0) return null;
  try {
    const at = { i: 0 };
    const data = mapping(lines, at, 0);
    return at.i === lines.length ? data : null;
  } catch (error) {
    if (error instanceof OutsideSubset) return null;
    throw error;
  }
}

/** A block mapping whose keys sit at `indent`, from `lines[at.i]` on. */
function mapping(lines: readonly Line[], at: { i: number }, indent: number): Record<string, Value> {
  const out: Record<string, Value> = {};
  while (at.i < lines.length) {
    const line = lines[at.i]!;
    if (line.indent < indent) break;
    if (line.indent > indent) outside();
    const m = KEY_LINE.exec(line.text) ?? outside();
    const key = m[1]!;
    if (SPECIAL_KEYS.has(key) || Object.hasOwn(out, key)) outside();
    const rest = (m[2] ?? '').trimEnd();
    at.i += 1;
    const next = lines[at.i];
    if (rest === '') {
      // A nested mapping, more indented than its key (an empty value, a list: the full parser).
      if (next === undefined || next.indent <= indent) outside();
      out[key] = mapping(lines, at, next!.indent);
    } else {
      if (next !== undefined && next.indent > indent) outside(); // a continuation line
      out[key] = scalarOrList(rest);
    }
  }
  return out;
}

function scalarOrList(text: string): Value {
  const first = text[0];
  if (first === '"' || first === "'") {
    const q = quoted(text, 0);
    if (!TRAILER.test(text.slice(q.end))) outside();
    return q.value;
  }
  if (first === '[') return flowList(text);
  if (DECIMAL.test(text)) return Number(text);
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (!PLAIN_WORDS.test(text) || NOT_STRINGS.has(text)) outside();
  return text;
}

/** A one-line quoted string starting at `start`: its value and the offset after its closing quote. */
function quoted(text: string, start: number): { value: string; end: number } {
  const q = text[start];
  let value = '';
  let i = start + 1;
  for (;;) {
    // The next quote (or, in double quotes, backslash): the text before it is taken as it is.
    const stop = q === '"' ? nextOf(text, i) : text.indexOf("'", i);
    if (stop === -1) return outside(); // not closed on this line
    value += text.slice(i, stop);
    if (text[stop] === '\\') {
      value += ESCAPES[text[stop + 1] ?? ''] ?? outside();
      i = stop + 2;
    } else if (q === "'" && text[stop + 1] === "'") {
      value += "'";
      i = stop + 2;
    } else return { value, end: stop + 1 };
  }
}

/** The offset of the next `"` or backslash at or after `from`, or -1. */
function nextOf(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 92) return i;
  }
  return -1;
}

/** `[ "a", 'b' ]`: quoted strings only, no trailing comma. */
function flowList(text: string): string[] {
  const out: string[] = [];
  let i = 1;
  const skip = (): void => {
    while (text[i] === ' ') i += 1;
  };
  skip();
  if (text[i] === ']') return trailer(text, i + 1, out);
  for (;;) {
    if (text[i] !== '"' && text[i] !== "'") outside();
    const q = quoted(text, i);
    out.push(q.value);
    i = q.end;
    skip();
    if (text[i] === ']') return trailer(text, i + 1, out);
    if (text[i] !== ',') outside();
    i += 1;
    skip();
  }
}

function trailer(text: string, end: number, list: string[]): string[] {
  if (!TRAILER.test(text.slice(end))) outside();
  return list;
}
