/**
 * The finding-shape rules (contract: "The Finding shape"), as pure functions. checkFinding judges
 * a finding when it is filed, as roboco validates it (docs/review.md "Differences from roboco");
 * `findings validate` judges committed `filed` lines with the structural part only (limits,
 * findingFileProblem), so history filed before a rule was added stays valid.
 */
import { isPlainObject } from '../jsonl.js';
import { normalizeRelative, relativePathProblem } from '../paths.js';
import { SEVERITIES, type FindingBody, type Severity, type TaskFile } from './types.js';

/**
 * Limits in Unicode code points (contract: "<=300 chars" etc.), not UTF-16 code units. `file`'s
 * limit is roboco's and applies when a finding is filed (filedFileProblem).
 */
export const LIMITS = { expected: 300, actual: 300, fix: 500, evidence: 2000, file: 300 } as const;

/** Count guard (contract: "Count guard"): above SOFT warns, above HARD is refused. */
export const COUNT_SOFT = 5;
export const COUNT_HARD = 10;

const KNOWN_FIELDS = new Set(['file', 'line', 'severity', 'criterion', 'expected', 'actual', 'fix', 'evidence', 'class']);
const CLASS_SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Length in Unicode code points: an emoji counts once. */
export function codePoints(s: string): number {
  return [...s].length;
}

export interface FieldProblem {
  /** The offending field (`severity`, `file`, …) or `(finding)` for the whole object. */
  readonly field: string;
  readonly message: string;
}

/** Why a `file` value is unacceptable, or null. `./a.py` and `foo..bar.py` are fine; `a/../b` is not. */
export function findingFileProblem(file: string): string | null {
  if (/^\\\\/.test(file)) return 'is a UNC path (use a path relative to the repository root)';
  const problem = relativePathProblem(file);
  if (problem) return problem;
  if (normalizeRelative(file) === '') return 'names no file';
  return null;
}

/**
 * `file` values that say "no file" (squashed, any case): `none`, `n/a`, `TBD`, `unknown`… Narrower
 * than isPlaceholder on purpose: `TODO`, `test` or `notes` can be real file names.
 */
const FILE_PLACEHOLDERS = new Set([
  'none',
  'na',
  'tbd',
  'tba',
  'tbc',
  'unknown',
  'null',
  'nil',
  'undefined',
  'nofile',
  'notapplicable',
  'unspecified',
]);

/**
 * The rules roboco applies to `file` when a finding is filed, on top of findingFileProblem: at
 * most 300 code points; not a placeholder; the shape of a repository path — no `~` (a home
 * folder), no `#` (a URL fragment or `a.py#L10`: the line goes in `line`), and not prose (spaces,
 * but neither a `/` nor a file extension: `the description in the PR`). Only at filing: the ledger
 * is append-only, so `findings validate` keeps accepting lines filed before these rules
 * (docs/review.md "Differences from roboco"). Pure.
 */
export function filedFileProblem(file: string): string | null {
  const n = codePoints(file);
  if (n > LIMITS.file) return `is ${n} characters long; at most ${LIMITS.file} allowed`;
  const squashed = file
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
  if (squashed === '' || FILE_PLACEHOLDERS.has(squashed)) return 'is a placeholder, not a path: leave "file" out when no file applies';
  if (file.includes('~')) return 'contains "~": give the path relative to the repository root';
  if (file.includes('#')) return 'contains "#": give the path only, and the line number in "line"';
  if (/\s/u.test(file) && !file.includes('/') && !/\.[\p{L}\p{N}]+$/u.test(file))
    return 'reads as prose, not a repository path: name the file (e.g. src/app.py) or leave "file" out';
  return null;
}

/** U+0000–U+001F and U+007F: a line break or tab in `file`/`criterion` would split the one-line rendering. */
const CONTROL_CHAR = /[\u0000-\u001f\u007f]/;

/** `contains a control character (U+000A)` for the first control character of `s`, or null. */
export function controlCharProblem(s: string): string | null {
  const m = CONTROL_CHAR.exec(s);
  if (!m) return null;
  return (
    `contains a control character (U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}); ` +
    `line breaks, tabs and other control characters are not allowed`
  );
}

/** The criterion ids a task offers, for "valid ids are …" messages. */
export function criterionIds(task: TaskFile | null): string[] {
  return task ? task.criteria.map((c) => c.id) : [];
}

/**
 * Checks one raw finding (parsed JSON) and returns it normalised (absent optional fields → null,
 * `file` without `./`), or the problems naming each field. Pure.
 */
export function checkFinding(raw: unknown, task: TaskFile | null, taskId: string): { finding: FindingBody } | { problems: FieldProblem[] } {
  if (!isPlainObject(raw)) return { problems: [{ field: '(finding)', message: 'must be a JSON object' }] };
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(raw).sort()) {
    if (!KNOWN_FIELDS.has(key)) problems.push({ field: key, message: `unknown field (allowed: ${[...KNOWN_FIELDS].join(', ')})` });
  }
  const opt = (key: string): unknown => (raw[key] === undefined ? null : raw[key]);

  const severity = raw['severity'];
  if (severity === undefined) problems.push({ field: 'severity', message: `is required (one of ${SEVERITIES.join('|')})` });
  else if (typeof severity !== 'string' || !(SEVERITIES as readonly string[]).includes(severity)) {
    problems.push({ field: 'severity', message: `must be exactly one of ${SEVERITIES.join('|')} (got ${JSON.stringify(severity)})` });
  }

  const text = (key: 'expected' | 'actual', required: boolean): string | null => {
    const v = opt(key);
    if (v === null) {
      if (required) problems.push({ field: key, message: 'is required' });
      return null;
    }
    if (typeof v !== 'string') {
      problems.push({ field: key, message: 'must be a string' });
      return null;
    }
    if (v.trim() === '') {
      problems.push({ field: key, message: 'must not be empty' });
      return null;
    }
    // The same placeholder list as reasons and waiver notes (roboco: "wip", "n/a", "?"…).
    if (isPlaceholder(v)) {
      problems.push({
        field: key,
        message: `${JSON.stringify(v)} is a placeholder: say what ${key === 'expected' ? 'should happen' : 'happens instead'}`,
      });
      return null;
    }
    const n = codePoints(v);
    if (n > LIMITS[key]) problems.push({ field: key, message: `is ${n} characters long; at most ${LIMITS[key]} allowed` });
    return v;
  };
  const expected = text('expected', true);
  const actual = text('actual', true);

  const optionalText = (key: 'fix' | 'evidence'): string | null => {
    const v = opt(key);
    if (v === null) return null;
    if (typeof v !== 'string') {
      problems.push({ field: key, message: 'must be a string' });
      return null;
    }
    if (v.trim() === '') {
      // roboco refuses `fix: ""` rather than reading it as "no fix"; leave the field out instead.
      if (key === 'fix') problems.push({ field: key, message: 'must not be empty: leave "fix" out (or null) when there is none' });
      return null;
    }
    const n = codePoints(v);
    if (n > LIMITS[key]) problems.push({ field: key, message: `is ${n} characters long; at most ${LIMITS[key]} allowed` });
    return v;
  };
  const fix = optionalText('fix');
  const evidence = optionalText('evidence');

  let file: string | null = null;
  const rawFile = opt('file');
  if (rawFile !== null) {
    if (typeof rawFile !== 'string') problems.push({ field: 'file', message: 'must be a string' });
    else {
      const p = controlCharProblem(rawFile) ?? findingFileProblem(rawFile) ?? filedFileProblem(rawFile);
      if (p) problems.push({ field: 'file', message: `${JSON.stringify(rawFile)} ${p}` });
      else file = normalizeRelative(rawFile);
    }
  }

  let line: number | null = null;
  const rawLine = opt('line');
  if (rawLine !== null) {
    if (typeof rawLine !== 'number' || !Number.isInteger(rawLine) || rawLine < 1) {
      problems.push({ field: 'line', message: `must be an integer >= 1 (got ${JSON.stringify(rawLine)})` });
    } else line = rawLine;
  }

  let criterion: string | null = null;
  const rawCriterion = opt('criterion');
  if (rawCriterion !== null) {
    if (typeof rawCriterion !== 'string' || rawCriterion === '')
      problems.push({ field: 'criterion', message: 'must be a non-empty string' });
    else if (controlCharProblem(rawCriterion) !== null)
      problems.push({ field: 'criterion', message: `${JSON.stringify(rawCriterion)} ${controlCharProblem(rawCriterion)!}` });
    else if (task === null) {
      problems.push({
        field: 'criterion',
        message:
          `cannot be checked: task "${taskId}" has no .agents/tasks/${taskId}.json ` +
          `(create it with \`findings review task ${taskId} --criterion "…"\`)`,
      });
    } else {
      // Contract: a criterion matching neither an id nor the exact text is rejected outright.
      const match = task.criteria.find((c) => c.id === rawCriterion || c.text === rawCriterion);
      if (match) criterion = match.id;
      else {
        const ids = criterionIds(task);
        problems.push({
          field: 'criterion',
          message: `${JSON.stringify(rawCriterion)} matches no criterion of task "${taskId}"; valid ids: ${ids.length > 0 ? ids.join(', ') : '(none)'}`,
        });
      }
    }
  }

  let cls: string | null = null;
  const rawClass = opt('class');
  if (rawClass !== null) {
    if (typeof rawClass !== 'string' || !CLASS_SLUG.test(rawClass))
      problems.push({ field: 'class', message: 'must be a lowercase slug (a-z, 0-9, -; at most 64)' });
    else cls = rawClass;
  }

  if (problems.length > 0) return { problems };
  return {
    finding: { file, line, severity: severity as Severity, criterion, expected: expected!, actual: actual!, fix, evidence, class: cls },
  };
}

/**
 * Placeholder text ("wip", "tbd", "n/a", "-", "...", whitespace…) that says nothing; refused as a
 * CEO reason or a waiver note (contract: "An empty or placeholder reason is rejected cleanly").
 */
const PLACEHOLDER_WORDS = new Set([
  'wip',
  'tbd',
  'tba',
  'tbc',
  'todo',
  'fixme',
  'na',
  'none',
  'null',
  'nil',
  'nothing',
  'placeholder',
  'x',
  'xx',
  'xxx',
  'later',
  'fixlater',
  'pending',
  'soon',
  'asdf',
  'test',
  'reason',
  'note',
  'no',
  'ok',
  'nope',
  'idk',
  'etc',
  'tk',
  'undefined',
]);

/**
 * Words that carry no content of their own: a text made only of these and placeholder words
 * ("fix later", "TODO: later", "wip for now", "will do") is still a placeholder. `n` and `a` let
 * "n / a" split into words.
 */
const FILLER_WORDS = new Set([
  'n',
  'a',
  'fix',
  'me',
  'it',
  'to',
  'do',
  'be',
  'done',
  'will',
  'for',
  'now',
  'yet',
  'then',
  'and',
  'or',
  'tomorrow',
  'more',
  'see',
  'above',
  'below',
]);

/**
 * Whether a free-text reason is empty or a placeholder: nothing once punctuation and spaces are
 * removed, a placeholder word once squashed ("T.B.D.", "n/a"), or only placeholder and filler
 * words ("pending", "TODO: later", "fix later"). Pure, case-insensitive.
 */
export function isPlaceholder(text: string): boolean {
  const folded = text.normalize('NFKC').toLowerCase();
  const letters = folded.replace(/[^\p{L}\p{N}]+/gu, '');
  if (letters === '' || PLACEHOLDER_WORDS.has(letters)) return true;
  const words = folded.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  return words.every((w) => PLACEHOLDER_WORDS.has(w) || FILLER_WORDS.has(w));
}
