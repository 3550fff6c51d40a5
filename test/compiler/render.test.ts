/**
 * The template renderer (compiler/render.ts) splits each template once and joins the parts; it
 * must give exactly what a regex replace with a callback gave, whatever the slot values hold.
 */
import { describe, expect, it } from 'vitest';
import { renderTemplate, template, yamlValue } from '../../compiler/render.js';

/** The renderer as it was: one replace with a callback (its result is inserted as it is). */
function byReplace(text: string, slots: Record<string, string>): string {
  return text.replace(/\{\{([a-z_]+)\}\}/g, (_, name: string) => {
    const v = Object.hasOwn(slots, name) ? slots[name] : undefined;
    if (v === undefined) throw new Error(`template slot "${name}" has no value`);
    return v;
  });
}

const TRICKY = ['', '$&', "$1 $$ $` $'", '{{id}}', '}}{{', 'a\nb', '\u2028', 'é ✓ 𝄞'];

describe('renderTemplate', () => {
  it('gives the bytes of a replace with a callback, for tricky values in every slot of every template', () => {
    for (const name of ['finding', 'planning-rule', 'pre-mortem-check'] as const) {
      const text = template(name);
      const names = [...text.matchAll(/\{\{([a-z_]+)\}\}/g)].map((m) => m[1]!);
      expect(names.length).toBeGreaterThan(5);
      TRICKY.forEach((value, k) => {
        const slots = Object.fromEntries(names.map((n, i) => [n, `${TRICKY[(i + k) % TRICKY.length]}${value}`]));
        expect(renderTemplate(text, slots)).toBe(byReplace(text, slots));
      });
    }
  });

  it('a template with no slot, with slots at both ends, and adjacent slots', () => {
    const slots = { a: 'A', b: '$&' };
    for (const text of ['plain', '{{a}}', '{{a}}{{b}}', 'x{{a}}y{{b}}z', '{{a}} {{ a }} {{A}}']) {
      expect(renderTemplate(text, slots)).toBe(byReplace(text, slots));
    }
  });

  it('throws on a slot without a value, and does not take one from the prototype', () => {
    expect(() => renderTemplate('x {{missing}}', {})).toThrow('template slot "missing" has no value');
    expect(() => renderTemplate('{{constructor}}', {})).toThrow('template slot "constructor" has no value');
  });
});

describe('yamlValue', () => {
  it('is JSON, with U+2028 and U+2029 escaped', () => {
    expect(yamlValue('plain "q" \\')).toBe(JSON.stringify('plain "q" \\'));
    expect(yamlValue('a\u2028b\u2029c\u2028')).toBe('"a\\u2028b\\u2029c\\u2028"');
    expect(yamlValue(['x\u2029', 'y'])).toBe('["x\\u2029","y"]');
    expect(yamlValue(3)).toBe('3');
  });
});
