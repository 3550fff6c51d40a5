/**
 * The proposed registry entry of a candidate: a valid registry line (docs/contracts/registry.md#required-fields)
 * drafted from the findings' expected/actual/fix, for a person to edit before
 * `findings recur --promote`. Pure and deterministic: the same findings give the same entry.
 */
import { createHash } from 'node:crypto';
import { compareStrings } from '../diagnostics.js';
import { normalizeDedupKey } from '../registry/normalize.js';
import type { RegistryEntry, WorkShape } from '../types.js';
import { defectText, directoryOf, FIXED_EXPECTED, type RecurFinding } from './classify.js';

/** Review severities (docs/contracts/review-ledger.md#the-finding-shape) to registry severity labels. */
const SEVERITY: Record<string, string> = { blocker: 'critical', major: 'significant', minor: 'minor', nit: 'minor' };
const SEVERITY_RANK = ['blocker', 'major', 'minor', 'nit'];

const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  rb: 'ruby',
  php: 'php',
  cs: 'csharp',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cc: 'cpp',
  hpp: 'cpp',
  swift: 'swift',
  sh: 'shell',
  bash: 'shell',
  md: 'markdown',
  mdx: 'markdown',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  sql: 'sql',
  html: 'html',
  css: 'css',
};

/** The work shape a file suggests (`applicable_when` is guessed from the files' kind). */
export function shapeOfFile(file: string): WorkShape {
  const lower = file.toLowerCase();
  if (/(^|\/)(tests?|__tests__|spec|specs)\//.test(lower) || /\.(test|spec)\.[a-z0-9]+$/.test(lower) || /(^|\/)test_[^/]+\.py$/.test(lower))
    return 'test-gap';
  if (/\.(md|mdx|rst|adoc|txt)$/.test(lower) || /(^|\/)docs?\//.test(lower)) return 'docs-drift';
  if (/\.schema\.json$/.test(lower) || /\.(proto|sql|graphql|avsc)$/.test(lower) || /(^|\/)(migrations?|schemas?)\//.test(lower))
    return 'struct-change';
  return 'validation-gap';
}

const SHAPE_ORDER: readonly WorkShape[] = ['test-gap', 'docs-drift', 'struct-change', 'validation-gap'];

/** The most common shape among the files (ties in SHAPE_ORDER); `validation-gap` without files. */
export function guessShape(files: readonly string[]): WorkShape {
  const counts = new Map<WorkShape, number>();
  for (const f of files) counts.set(shapeOfFile(f), (counts.get(shapeOfFile(f)) ?? 0) + 1);
  let best: WorkShape = 'validation-gap';
  let bestCount = 0;
  for (const s of SHAPE_ORDER) {
    const n = counts.get(s) ?? 0;
    if (n > bestCount) {
      best = s;
      bestCount = n;
    }
  }
  return best;
}

export function languagesOf(files: readonly string[]): string[] {
  const out = new Set<string>();
  for (const f of files) {
    const dot = f.lastIndexOf('.');
    const lang = dot > f.lastIndexOf('/') ? LANGUAGES[f.slice(dot + 1).toLowerCase()] : undefined;
    if (lang) out.add(lang);
  }
  return [...out].sort(compareStrings);
}

/** The registry id of a class's proposed entry: stable for the class key. */
export function proposedId(classKey: string): string {
  return `f-recur-${createHash('sha256').update(classKey).digest('hex').slice(0, 10)}`;
}

const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/**
 * Drafts the registry line for a class. `findings` are the class's findings (any order); the
 * earliest filed one supplies the wording.
 */
export function draftEntry(classKey: string, findings: readonly RecurFinding[]): RegistryEntry {
  const sorted = [...findings].sort(
    (a, b) => compareStrings(a.filedAt, b.filedAt) || compareStrings(a.task, b.task) || compareStrings(a.id, b.id),
  );
  const rep = sorted[0]!;
  const files = [...new Set(findings.flatMap((f) => (f.file === null ? [] : [f.file])))].sort(compareStrings);
  const shape = guessShape(files);
  const worst = [...findings].map((f) => f.severity).sort((a, b) => SEVERITY_RANK.indexOf(a) - SEVERITY_RANK.indexOf(b))[0] ?? 'major';
  const fixed = FIXED_EXPECTED.has(rep.expected) || rep.origin === 'ceo';
  const pattern = fixed
    ? `Review rejected work because ${clip(defectText(rep), 280)}`
    : `Work fell short of "${clip(rep.expected, 200)}": ${clip(rep.actual, 200)}`;
  const where = files.length > 0 ? ` in ${[...new Set(files.map(directoryOf))].slice(0, 3).join(', ')}` : '';
  const fix = sorted.find((f) => f.fix !== null)?.fix ?? null;
  const category = shape;
  return {
    id: proposedId(classKey),
    version: 1,
    tier: 'local',
    source: { repo: 'local', session: rep.task, file: rep.ledgerFile, skill: 'recur' },
    date: /^\d{4}-\d{2}-\d{2}/.test(rep.filedAt) ? rep.filedAt.slice(0, 10) : '1970-01-01',
    severity: SEVERITY[worst] ?? 'significant',
    category,
    pattern,
    detection_question: fixed
      ? `Could this work be rejected again because ${clip(defectText(rep), 200)}?`
      : `Does the work meet "${clip(rep.expected, 200)}"${where}, or does it repeat "${clip(rep.actual, 200)}"?`,
    checklist_item:
      fix !== null
        ? `Before asking for review, check${where}: ${clip(fix, 400)}`
        : `Before asking for review, verify${where}: ${clip(defectText(rep), 300)}`,
    applicable_languages: languagesOf(files),
    applicable_when: [shape],
    status: 'active',
    superseded_by: null,
    dedup_key: normalizeDedupKey(category, pattern, [shape]),
    hit_count: 0,
    last_cited: null,
    ttl_days: 30,
    confidence: 'low',
  };
}
