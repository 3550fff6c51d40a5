/**
 * The tiny template renderer: `templates/*.md` are logic-free text with `{{slot}}` markers; all
 * decisions (what goes in a slot, how it is quoted) are made by the code that prepares the
 * slots. Templates ship with the package and are read once per process.
 */
import { readFileSync } from 'node:fs';
import { packageFile } from '../src/package-root.js';

export type TemplateName = 'finding' | 'planning-rule' | 'pre-mortem-check';

const cache = new Map<TemplateName, string>();

/** The text of `templates/<name>.md` (LF line endings whatever the checkout does). */
export function template(name: TemplateName): string {
  let t = cache.get(name);
  if (t === undefined) {
    t = readFileSync(packageFile('templates', `${name}.md`), 'utf8').replace(/\r\n/g, '\n');
    cache.set(name, t);
  }
  return t;
}

/**
 * A template split once at its slots: literal text at even indexes, slot names at odd ones
 * (String#split with a capturing group). A cold compile renders ~29,000 files from three templates.
 */
const splitTemplates = new Map<string, readonly string[]>();
function templateParts(text: string): readonly string[] {
  let parts = splitTemplates.get(text);
  if (parts === undefined) {
    parts = text.split(/\{\{([a-z_]+)\}\}/);
    splitTemplates.set(text, parts);
  }
  return parts;
}

/** Fills every `{{slot}}`; a slot without a value is a bug in the caller, so it throws. Pure. */
export function renderTemplate(text: string, slots: Readonly<Record<string, string>>): string {
  const parts = templateParts(text);
  const out = new Array<string>(parts.length);
  for (let i = 0; i < parts.length; i += 1) {
    if (i % 2 === 0) {
      out[i] = parts[i]!;
      continue;
    }
    const name = parts[i]!;
    const v = Object.hasOwn(slots, name) ? slots[name] : undefined;
    if (v === undefined) throw new Error(`template slot "${name}" has no value`);
    // Inserted as it is (as a replace callback's result would be: no `$` patterns).
    out[i] = v;
  }
  return out.join('');
}

const LINE_SEPARATORS = /[\u2028\u2029]/;

/**
 * A YAML 1.2 double-quoted scalar or flow sequence. JSON is a subset of YAML 1.2, so
 * JSON.stringify quotes every character safely (quotes, backslashes, control characters);
 * U+2028/U+2029 are escaped too so no reader can mistake them for line breaks.
 */
export function yamlValue(value: string | readonly string[] | number): string {
  const json = JSON.stringify(value);
  // Nearly every value has neither character: one search instead of two replaces.
  if (!LINE_SEPARATORS.test(json)) return json;
  return json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** One line of Markdown body text: line breaks (any kind) become spaces, ends trimmed. */
export function inlineText(value: string): string {
  return value.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ').trim();
}

/** A comma-separated list for a Markdown line, or `(none)`. */
export function listText(values: readonly string[]): string {
  return values.length === 0 ? '(none)' : values.map(inlineText).join(', ');
}
