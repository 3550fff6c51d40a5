/**
 * The defect class of each imported comment (docs/import.md, "Classes"), deterministic and
 * offline, first answer wins: (1) an explicit tag (`[class: n-plus-one]`) or a Conventional
 * Comments decoration (`issue (security): …`), read by the mapper; (2) `import.classes` in
 * `.agents/config.json`, class by class in name order, a word (case-insensitive, whole word) or a
 * `/regex/flags` (run on re2js, linear time) found in the comment or the commented code; (3) a
 * lexical cluster of the export's comments (./lexical.ts). A comment alike to no other keeps no
 * class: `recur` then derives one from its folder and words, as for any finding.
 */
import { re2js } from '../match/re2.js';
import { lexicalClasses } from './lexical.js';

/** What the classifier reads of one comment. */
export interface Classifiable {
  readonly key: string;
  readonly explicitClass: string | null;
  readonly text: string;
  readonly code: string;
}

/** How each comment got its class (for the import's summary). */
export type ClassOrigin = 'explicit' | 'config' | 'lexical' | 'none';

type Test = (text: string) => boolean;

/** A word test: case-insensitive, not inside a longer word. */
function wordTest(word: string): Test {
  const w = word.trim().toLowerCase();
  const isWordChar = (c: string | undefined): boolean => c !== undefined && /[a-z0-9_]/.test(c);
  return (text) => {
    const t = text.toLowerCase();
    for (let at = t.indexOf(w); at !== -1; at = t.indexOf(w, at + 1)) {
      const before = t[at - 1];
      const after = t[at + w.length];
      if ((!isWordChar(w[0]) || !isWordChar(before)) && (!isWordChar(w[w.length - 1]) || !isWordChar(after))) return true;
    }
    return false;
  };
}

/** A test for one pattern: `/source/flags` is a regular expression (flags i, m, s), anything else a word. */
export function patternTest(pattern: string): Test | { problem: string } {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (!m) return wordTest(pattern);
  const flags = m[2]!;
  if (!/^[ims]*$/.test(flags)) return { problem: `flags "${flags}" of ${pattern} are not allowed (use i, m, s)` };
  const { RE2JS } = re2js();
  try {
    const re = RE2JS.compile(
      m[1]!,
      (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) |
        (flags.includes('m') ? RE2JS.MULTILINE : 0) |
        (flags.includes('s') ? RE2JS.DOTALL : 0),
    );
    return (text) => re.matcher(text).find();
  } catch (error) {
    return { problem: `${pattern} does not compile: ${(error as Error).message}` };
  }
}

/**
 * Compiles `import.classes` (class → words or `/regex/flags`; the schema has checked the shape) into
 * rules in class-name order; a pattern that does not compile is reported and left out.
 */
export function compileRules(classes: Readonly<Record<string, readonly string[]>>): {
  rules: { class: string; tests: Test[] }[];
  problems: string[];
} {
  const problems: string[] = [];
  const out = Object.keys(classes)
    .sort()
    .map((name) => ({
      class: name,
      tests: classes[name]!.flatMap((p) => {
        const t = patternTest(p);
        if (typeof t === 'function') return [t];
        problems.push(`"import.classes.${name}": ${t.problem}`);
        return [];
      }),
    }));
  return { rules: out, problems };
}

/** Classes by key (in the order of `items`), and how each was found. Pure given the rules. */
export function classify(
  items: readonly Classifiable[],
  rules: readonly { class: string; tests: Test[] }[],
): Map<string, { class: string | null; origin: ClassOrigin }> {
  const out = new Map<string, { class: string | null; origin: ClassOrigin }>();
  const rest: Classifiable[] = [];
  for (const item of items) {
    if (item.explicitClass !== null) {
      out.set(item.key, { class: item.explicitClass, origin: 'explicit' });
      continue;
    }
    const both = `${item.text}\n${item.code}`;
    const rule = rules.find((r) => r.tests.some((t) => t(both)));
    if (rule !== undefined) out.set(item.key, { class: rule.class, origin: 'config' });
    else rest.push(item);
  }
  const lexical = lexicalClasses(rest.map((i) => ({ key: i.key, text: `${i.text}\n${i.code}` })));
  const ordered = new Map<string, { class: string | null; origin: ClassOrigin }>();
  for (const item of items) {
    const c = out.get(item.key) ?? lexical.get(item.key);
    ordered.set(item.key, typeof c === 'object' ? c : c === undefined ? { class: null, origin: 'none' } : { class: c, origin: 'lexical' });
  }
  return ordered;
}
