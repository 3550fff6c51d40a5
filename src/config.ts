/** `.agents/config.json`: optional repository settings, with documented defaults. */
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { isPlainObject, parseJsonDocument } from './jsonl.js';
import { Layout } from './layout.js';
import type { RepoFiles } from './repo-files.js';

export interface Config {
  /** Regex with one capture group giving the task id from a branch name (default: the last path segment). */
  readonly taskBranchPattern: string;
  /** Activation needs at least this many labelled hits (default 20). */
  readonly minLabelledHits: number;
  /** …with at least this precision (default 0.95). */
  readonly minPrecision: number;
  /** Per constraint and file time budget for matching, in ms (default 250). */
  readonly matchBudgetMs: number;
  /**
   * `import.classes`: defect class → words or `/regex/flags` that put an imported review comment in
   * it (docs/import.md, "Classes"), in class order; default none.
   */
  readonly importClasses: readonly ImportClassRule[];
}

/** One `import.classes` entry: a class slug and its words or `/regex/flags` (docs/import.md). */
export interface ImportClassRule {
  readonly class: string;
  readonly patterns: readonly string[];
}

export const DEFAULT_CONFIG: Config = {
  taskBranchPattern: '^(?:.*/)?([A-Za-z0-9][A-Za-z0-9._-]{0,127})$',
  minLabelledHits: 20,
  minPrecision: 0.95,
  matchBudgetMs: 250,
  importClasses: [],
};

/**
 * Reads `import.classes` ({"<class slug>": ["word", "/regex/i", …]}): the rules in class order,
 * and a problem naming the first bad entry (the setting is then ignored). Pure.
 */
export function importClassRules(v: unknown): { rules: ImportClassRule[]; problem: string | null } {
  if (!isPlainObject(v)) return { rules: [], problem: 'must be an object of class → list of words or /regex/flags' };
  const rules: ImportClassRule[] = [];
  for (const key of Object.keys(v).sort()) {
    const list = v[key];
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(key)) return { rules: [], problem: `class "${key}" is not a lowercase slug (a-z, 0-9, -)` };
    if (!Array.isArray(list) || list.length === 0 || !list.every((p) => typeof p === 'string' && p.trim() !== ''))
      return { rules: [], problem: `class "${key}" must list one or more words or /regex/flags` };
    rules.push({ class: key, patterns: list as string[] });
  }
  return { rules, problem: null };
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

/**
 * Parses config JSON text. Pure. Ill-typed settings are warnings and fall back to defaults,
 * except an unusable `task_branch_pattern`, which is an error.
 */
export function parseConfig(text: string, file: string = Layout.config): { config: Config; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const doc = parseJsonDocument(text);
  if (!doc.ok) {
    diagnostics.push(
      diagnostic({
        file,
        line: doc.line,
        column: doc.column,
        severity: 'warning',
        ruleId: 'config/invalid-json',
        message: `${doc.reason}; using defaults`,
      }),
    );
    return { config: DEFAULT_CONFIG, diagnostics };
  }
  const raw = doc.value;
  if (!isPlainObject(raw)) {
    diagnostics.push(
      diagnostic({
        file,
        line: 1,
        severity: 'warning',
        ruleId: 'config/not-object',
        message: 'config must be a JSON object; using defaults',
      }),
    );
    return { config: DEFAULT_CONFIG, diagnostics };
  }
  const config: { -readonly [K in keyof Config]: Config[K] } = { ...DEFAULT_CONFIG };
  const pick = <K extends keyof Config>(key: string, field: K, ok: (v: unknown) => boolean): void => {
    if (!(key in raw)) return;
    const v = raw[key];
    if (ok(v)) config[field] = v as Config[K];
    else
      diagnostics.push(
        diagnostic({
          file,
          line: 1,
          severity: 'warning',
          ruleId: 'config/invalid-setting',
          message: `"${key}" has an invalid value; using the default ${JSON.stringify(DEFAULT_CONFIG[field])}`,
        }),
      );
  };
  if ('task_branch_pattern' in raw) {
    // An unusable pattern must never read as "this branch names no task": that would open the
    // push gate (docs/hooks.md, "What a change can and cannot do to its own judgment").
    const problem = taskPatternProblem(raw['task_branch_pattern']);
    if (problem === null) config.taskBranchPattern = raw['task_branch_pattern'] as string;
    else
      diagnostics.push(
        diagnostic({
          file,
          line: 1,
          ruleId: 'config/invalid-setting',
          message: `"task_branch_pattern" ${problem}: the push gate cannot tell a branch's task`,
        }),
      );
  }
  const activation = isPlainObject(raw['activation']) ? raw['activation'] : {};
  if ('min_labelled_hits' in activation) {
    const v = activation['min_labelled_hits'];
    if (Number.isInteger(v) && (v as number) >= 1) config.minLabelledHits = v as number;
    else
      diagnostics.push(
        diagnostic({
          file,
          line: 1,
          severity: 'warning',
          ruleId: 'config/invalid-setting',
          message: '"activation.min_labelled_hits" must be an integer >= 1; using 20',
        }),
      );
  }
  if ('min_precision' in activation) {
    const v = activation['min_precision'];
    if (typeof v === 'number' && v > 0 && v <= 1) config.minPrecision = v;
    else
      diagnostics.push(
        diagnostic({
          file,
          line: 1,
          severity: 'warning',
          ruleId: 'config/invalid-setting',
          message: '"activation.min_precision" must be a number in (0, 1]; using 0.95',
        }),
      );
  }
  pick('match_budget_ms', 'matchBudgetMs', (v) => Number.isInteger(v) && (v as number) >= 1);
  const importSettings = isPlainObject(raw['import']) ? raw['import'] : {};
  if ('classes' in importSettings) {
    const { rules, problem } = importClassRules(importSettings['classes']);
    if (problem === null) config.importClasses = rules;
    else
      diagnostics.push(
        diagnostic({
          file,
          line: 1,
          severity: 'warning',
          ruleId: 'config/invalid-setting',
          message: `"import.classes" ${problem}; no class mapping is used`,
        }),
      );
  }
  return { config, diagnostics };
}

/** Loads the config from a file source; a missing file gives the defaults. */
export async function loadConfig(files: RepoFiles): Promise<{ config: Config; diagnostics: Diagnostic[] }> {
  const data = await files.read(Layout.config);
  if (data === null) return { config: DEFAULT_CONFIG, diagnostics: [] };
  return parseConfig(data.toString('utf8'));
}
