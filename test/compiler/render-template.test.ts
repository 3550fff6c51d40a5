/**
 * The template renderer splits each template once (compiler/render.ts); it must give the bytes the
 * plain `replace` over the text gives, whatever the values hold (`$&`, `{{slot}}`, line breaks).
 */
import { describe, expect, it } from 'vitest';
import { renderTemplate, template, type TemplateName } from '../../compiler/render.js';

const byReplace = (text: string, slots: Record<string, string>): string =>
  text.replace(/\{\{([a-z_]+)\}\}/g, (_, name: string) => {
    const v = Object.hasOwn(slots, name) ? slots[name] : undefined;
    if (v === undefined) throw new Error(`template slot "${name}" has no value`);
    return v;
  });

const VALUES = ['plain', '$& $1 $$ $`', '{{id}}', '"quoted"\n second line', '', 'é 日本 😀', '}}{{'];

describe('renderTemplate', () => {
  for (const name of ['finding', 'planning-rule', 'pre-mortem-check'] as TemplateName[]) {
    it(`${name}: the same bytes as a replace over the template`, () => {
      const text = template(name);
      const slotNames = [...text.matchAll(/\{\{([a-z_]+)\}\}/g)].map((m) => m[1]!);
      expect(slotNames.length).toBeGreaterThan(3);
      for (let k = 0; k < VALUES.length; k += 1) {
        const slots = Object.fromEntries(slotNames.map((s, i) => [s, `${VALUES[(i + k) % VALUES.length]!}${s}`]));
        // Twice: the first call splits the template, the second uses the split.
        expect(renderTemplate(text, slots)).toBe(byReplace(text, slots));
        expect(renderTemplate(text, slots)).toBe(byReplace(text, slots));
      }
    });
  }

  it('a slot without a value is a bug: it throws', () => {
    expect(() => renderTemplate('a {{missing}} b', {})).toThrow('template slot "missing" has no value');
    expect(() => renderTemplate('a {{missing}} b', {})).toThrow('template slot "missing" has no value');
  });
});
