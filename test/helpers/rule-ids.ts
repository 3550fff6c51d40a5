/**
 * Finds every rule id the sources can emit, by reading them as text (no import, so a module with
 * side effects or a heavy dependency costs nothing here). Three shapes occur:
 *  - a literal `'area/rule'` (in `ruleId: '…'`, or passed positionally to a local helper);
 *  - a family built from a template literal, `constraint/${id}`: reported as `constraint/<…>`;
 *  - a template whose suffix a local helper receives as a literal (`refuse('not-shadow', …)` in
 *    lifecycle activation, `d(file, 'hook-missing', …)` in doctor): expanded by WRAPPERS below,
 *    so each concrete id is checked rather than only the family.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const SCANNED_DIRS = ['src', 'compiler', 'hooks'] as const;

/** A template family whose concrete suffixes are literals found elsewhere in the same file (or a named file). */
interface Wrapper {
  readonly file: string;
  readonly family: string;
  /** Where the suffixes are written (defaults to `file`). */
  readonly suffixFile?: string;
  /** Group 1 of every match is one suffix. */
  readonly suffix: RegExp;
}

const WRAPPERS: readonly Wrapper[] = [
  { file: 'src/lifecycle/activate.ts', family: 'lifecycle/', suffix: /refuse\('([a-z0-9-]+)'/g },
  { file: 'hooks/doctor.ts', family: 'doctor/', suffix: /\bd\([^,()]+,\s*'([a-z0-9-]+)'/g },
  { file: 'src/reuse/pull.ts', family: 'pull/', suffixFile: 'src/git/pull.ts', suffix: /kind: '([a-z0-9-]+)'; readonly message/g },
  { file: 'src/registry/reader.ts', family: 'registry/', suffix: /'(invalid-json|yaml-block|schema)'/g },
];

export interface EmittedIds {
  /** Concrete ids → the files that write them (repository-relative, sorted). */
  readonly ids: Map<string, string[]>;
  /** Template families no wrapper expands (e.g. `constraint/`) → files. */
  readonly families: Map<string, string[]>;
}

export function sourceFiles(root: string, dirs: readonly string[] = SCANNED_DIRS): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(child);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

const add = (map: Map<string, string[]>, key: string, file: string): void => {
  const files = map.get(key) ?? [];
  if (!files.includes(file)) files.push(file);
  map.set(key, files);
};

/**
 * `areas` are the prefixes a bare literal or template must carry to count as a rule id (a string
 * such as `'text/plain'` is not one); every id written as `ruleId: …` counts whatever its prefix.
 */
export function scanEmittedRuleIds(root: string, areas: ReadonlySet<string>): EmittedIds {
  const ids = new Map<string, string[]>();
  const families = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/ruleId: *(['`])([a-z][a-z0-9-]*\/[a-z0-9][a-z0-9-]*)\1/g)) add(ids, m[2] as string, file);
    for (const m of text.matchAll(/(['`])([a-z][a-z0-9-]*)\/([a-z0-9][a-z0-9-]*)\1/g)) {
      if (areas.has(m[2] as string)) add(ids, `${m[2]}/${m[3]}`, file);
    }
    for (const m of text.matchAll(/(ruleId: *)?`([a-z][a-z0-9-]*)\/\$\{/g)) {
      // `hooks/${name}` in a path is no rule id: a template counts in `ruleId:` or with a known area.
      if (m[1] === undefined && !areas.has(m[2] as string)) continue;
      const family = `${m[2]}/`;
      const wrapper = WRAPPERS.find((w) => w.file === file && w.family === family);
      if (!wrapper) {
        add(families, family, file);
        continue;
      }
      const from = wrapper.suffixFile ? readFileSync(path.join(root, wrapper.suffixFile), 'utf8') : text;
      const suffixes = [...from.matchAll(wrapper.suffix)].map((s) => s[1] as string);
      // A wrapper that finds nothing means the code changed shape: report the bare family, so
      // the test fails and names the file rather than passing silently.
      if (suffixes.length === 0) add(families, family, file);
      for (const s of suffixes) add(ids, `${family}${s}`, file);
    }
  }
  for (const files of ids.values()) files.sort();
  for (const files of families.values()) files.sort();
  return { ids, families };
}
