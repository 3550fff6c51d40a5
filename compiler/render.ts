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

/** Fills every `{{slot}}`; a slot without a value is a bug in the caller, so it throws. Pure. */
export function renderTemplate(text: string, slots: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{([a-z_]+)\}\}/g, (_, name: string) => {
    const v = Object.hasOwn(slots, name) ? slots[name] : undefined;
    if (v === undefined) throw new Error(`template slot "${name}" has no value`);
    return v;
  });
}

/**
 * A YAML 1.2 double-quoted scalar or flow sequence. JSON is a subset of YAML 1.2, so
 * JSON.stringify quotes every character safely (quotes, backslashes, control characters);
 * U+2028/U+2029 are escaped too so no reader can mistake them for line breaks.
 */
export function yamlValue(value: string | readonly string[] | number): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** One line of Markdown body text: line breaks (any kind) become spaces, ends trimmed. */
export function inlineText(value: string): string {
  return value.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ').trim();
}

/** A comma-separated list for a Markdown line, or `(none)`. */
export function listText(values: readonly string[]): string {
  return values.length === 0 ? '(none)' : values.map(inlineText).join(', ');
}
