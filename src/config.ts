/**
 * `.agents/config.json`: optional repository settings with documented defaults (docs/config.md).
 * One table, SETTINGS, lists every setting: its key in the file, the `Config` field it fills and
 * its default. Its type and range live in schemas/config.schema.json, checked with ajv like every
 * other file; a setting the schema cannot fully judge (a regular expression's capture group) adds
 * a `problem` check. Adding a setting is one schema property plus one row here (and its line in
 * docs/config.md): test/kernel/config.test.ts holds the three together.
 */
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { isPlainObject, parseJsonDocument } from './jsonl.js';
import { Layout } from './layout.js';
import type { RepoFiles } from './repo-files.js';
import { validator } from './schema.js';
import { suggestions } from './suggest.js';
import { lineAt } from './text-position.js';

/** One setting: where it is in the file (dotted), which field it fills, its default. */
export interface Setting<F extends string = string, T = unknown> {
  readonly key: string;
  readonly field: F;
  readonly default: T;
  /** Why a value the schema accepts is still unusable (with what follows from it), or null. */
  problem?(value: T): string | null;
}

function setting<const F extends string, T>(key: string, field: F, defaultValue: T, problem?: (value: T) => string | null): Setting<F, T> {
  return problem === undefined ? { key, field, default: defaultValue } : { key, field, default: defaultValue, problem };
}

/**
 * Why a `task_branch_pattern` value is unusable, or null when it is a regular expression with at
 * least one capture group (the task is the first group). Pure.
 */
export function taskPatternProblem(v: unknown): string | null {
  if (typeof v !== 'string') return 'must be a string';
  let re: RegExp;
  try {
    re = new RegExp(v);
  } catch (error) {
    return `is not a valid regular expression (${(error as Error).message})`;
  }
  // `x|` always matches the empty string, so the match array reveals the number of groups.
  const groups = new RegExp(`${re.source}|`).exec('')!.length - 1;
  return groups >= 1 ? null : 'has no capture group (the first group is the task id)';
}

/** Every setting, in the order docs/config.md lists them. */
export const SETTINGS = [
  // An unusable pattern must never read as "this branch names no task": that would open the
  // push gate (docs/hooks.md, "What a change can and cannot do to its own judgment").
  setting('task_branch_pattern', 'taskBranchPattern', '^(?:.*/)?([A-Za-z0-9][A-Za-z0-9._-]{0,127})$', (v) => {
    const problem = taskPatternProblem(v);
    return problem === null ? null : `${problem}: the push gate cannot tell a branch's task`;
  }),
  setting('activation.min_labelled_hits', 'minLabelledHits', 20),
  setting('activation.min_precision', 'minPrecision', 0.95),
  setting('match_budget_ms', 'matchBudgetMs', 250),
  // Defect class → words or `/regex/flags` that put an imported review comment in it (docs/import.md);
  // the patterns are compiled, and a bad one reported, by `findings import` (src/import/classify.ts).
  setting('import.classes', 'importClasses', {} as Readonly<Record<string, readonly string[]>>),
] as const;

type AnySetting = (typeof SETTINGS)[number];

/** The settings a command reads, each its value in the file or its default. */
export type Config = { readonly [S in AnySetting as S['field']]: S['default'] };

export const DEFAULT_CONFIG: Config = Object.fromEntries(SETTINGS.map((s) => [s.field, s.default])) as unknown as Config;

/** The value at a dotted key, or undefined when the file does not set it. */
function valueAt(raw: Record<string, unknown>, key: string): unknown {
  let at: unknown = raw;
  for (const part of key.split('.')) {
    if (!isPlainObject(at) || !Object.hasOwn(at, part)) return undefined;
    at = at[part];
  }
  return at;
}

/** The 1-based line where a dotted key is written (each part searched after the one before), or 1. */
function keyLine(text: string, key: string): number {
  let from = 0;
  for (const part of key.split('.')) {
    const re = new RegExp(`${JSON.stringify(part).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`, 'g');
    re.lastIndex = from;
    const m = re.exec(text);
    if (!m) return 1;
    from = m.index;
  }
  return lineAt(text, from);
}

/** The known settings an unknown key was probably meant to be: a sibling first, else any setting with a close last part. */
function meant(key: string): string[] {
  const dot = key.lastIndexOf('.');
  const parent = key.slice(0, dot + 1);
  const leaf = key.slice(dot + 1);
  const keys = SETTINGS.map((s) => s.key);
  const siblings = [...new Set(keys.filter((k) => k.startsWith(parent)).map((k) => k.slice(parent.length).split('.')[0]!))];
  const near = suggestions(leaf, siblings);
  if (near.length > 0) return near.map((s) => parent + s);
  const leaves = keys.map((k) => k.slice(k.lastIndexOf('.') + 1));
  const far = new Set(suggestions(leaf, leaves));
  return keys.filter((k) => far.has(k.slice(k.lastIndexOf('.') + 1)));
}

interface SchemaProblem {
  readonly key: string;
  readonly unknown: boolean;
  readonly message: string;
}

/** What the schema rejects, one problem per key, in the file's order of keys as ajv reports them. */
function schemaProblems(raw: Record<string, unknown>): SchemaProblem[] {
  const check = validator('config');
  if (check(raw)) return [];
  const out: SchemaProblem[] = [];
  for (const e of check.errors ?? []) {
    const base = e.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      const key = base ? `${base}.${extra}` : extra;
      const guesses = meant(key);
      const hint = guesses.length > 0 ? `; did you mean ${guesses.map((g) => `"${g}"`).join(' or ')}?` : '';
      out.push({ key, unknown: true, message: `unknown setting "${key}" (ignored)${hint || '; docs/config.md lists every setting'}` });
      continue;
    }
    if (out.some((p) => p.key === base)) continue;
    const row = SETTINGS.find((s) => s.key === base);
    const fallback = row ? `; using the default ${JSON.stringify(row.default)}` : '; its settings take their defaults';
    out.push({
      key: base,
      unknown: false,
      message: `"${base}" ${e.message ?? 'is invalid'} (found ${JSON.stringify(valueAt(raw, base))})${fallback}`,
    });
  }
  return out;
}

/**
 * Parses config JSON text. Pure. Every problem is an error (invalid JSON, not an object, an
 * unknown key, a value of the wrong type or range, an unusable pattern), reported at the key's
 * line; the setting concerned takes its default, so a command still runs while `validate` and
 * the hooks refuse the file.
 */
export function parseConfig(text: string, file: string = Layout.config): { config: Config; diagnostics: Diagnostic[] } {
  const doc = parseJsonDocument(text);
  if (!doc.ok) {
    const message = `${doc.reason}; every setting takes its default`;
    return {
      config: DEFAULT_CONFIG,
      diagnostics: [diagnostic({ file, line: doc.line, column: doc.column, ruleId: 'config/invalid-json', message })],
    };
  }
  const raw = doc.value;
  if (!isPlainObject(raw)) {
    const message = 'config must be a JSON object; every setting takes its default';
    return { config: DEFAULT_CONFIG, diagnostics: [diagnostic({ file, line: 1, ruleId: 'config/not-object', message })] };
  }
  const problems = schemaProblems(raw);
  const diagnostics = problems.map((p) =>
    diagnostic({
      file,
      line: keyLine(text, p.key),
      ruleId: p.unknown ? 'config/unknown-key' : 'config/invalid-setting',
      message: p.message,
    }),
  );
  const rejected = (key: string): boolean => problems.some((p) => !p.unknown && (key === p.key || key.startsWith(`${p.key}.`)));
  const config: Record<string, unknown> = { ...DEFAULT_CONFIG };
  for (const s of SETTINGS as readonly Setting[]) {
    const value = valueAt(raw, s.key);
    if (value === undefined || rejected(s.key)) continue;
    const problem = s.problem?.(value) ?? null;
    if (problem === null) config[s.field] = value;
    else
      diagnostics.push(
        diagnostic({ file, line: keyLine(text, s.key), ruleId: 'config/invalid-setting', message: `"${s.key}" ${problem}` }),
      );
  }
  return { config: config as Config, diagnostics };
}

/** Loads the config from a file source; a missing file gives the defaults. */
export async function loadConfig(files: RepoFiles): Promise<{ config: Config; diagnostics: Diagnostic[] }> {
  const data = await files.read(Layout.config);
  if (data === null) return { config: DEFAULT_CONFIG, diagnostics: [] };
  return parseConfig(data.toString('utf8'));
}
