/** Mechanical findings, their fixtures and activation, for compiler and gate tests. */
import { runFindings, type TestRepo } from './repo.js';

export const INDEX = '.agents/constraints/index.json';

/** How `finding` varies between tests: the status line, the compiler targets, the `applies_to` block. */
export interface FindingShape {
  readonly statusLine?: string;
  readonly targets?: string;
  readonly appliesTo?: boolean;
}

/** A mechanical finding whose detector pattern is `pattern` (YAML double-quoted, so backslashes doubled). */
export function finding(
  id: string,
  pattern = 'eval\\\\(',
  { statusLine = 'status: "active"', targets = '["constraint"]', appliesTo = true }: FindingShape = {},
): string {
  return [
    '---',
    `id: "${id}"`,
    'type: "finding"',
    'date: "2026-01-02"',
    'source_skill: "k"',
    'source_artifact: "a.md"',
    `title: "T ${id}"`,
    'summary: "S"',
    'pattern: "P"',
    'detection_question: "Q?"',
    'checklist_item: "C."',
    'severity: "significant"',
    'detectability: "mechanical"',
    statusLine,
    `compiler_targets: ${targets}`,
    'scope_tags: ["test-gap"]',
    `dedup_key: "k|${id}|test-gap"`,
    'applicable_when: ["test-gap"]',
    'applicable_languages: []',
    'compiler:',
    ...(appliesTo ? ['  applies_to:', '    path_globs: ["**/*.js"]'] : []),
    '  detector:',
    '    kind: "regex"',
    `    pattern: "${pattern}"`,
    '  evidence:',
    `    positive_refs: [".agents/constraints/fixtures/${id}/bad.txt"]`,
    `    negative_control_refs: [".agents/constraints/fixtures/${id}/good.txt"]`,
    '---',
    '',
    'Body.',
    '',
  ].join('\n');
}

export function withFixtures(repo: TestRepo, id: string): void {
  repo.write(`.agents/constraints/fixtures/${id}/bad.txt`, 'eval(1)\n');
  repo.write(`.agents/constraints/fixtures/${id}/good.txt`, 'ok\n');
}

/** What `findings constraint activate` leaves behind (it needs a measured history to run). */
export function activate(repo: TestRepo): void {
  const idx = JSON.parse(repo.read(INDEX)) as { constraints: Record<string, unknown>[] };
  idx.constraints = idx.constraints.map((c) => ({
    ...c,
    status: 'active',
    enforcement_mode: 'block',
    evidence: {
      ...(c['evidence'] as object),
      precision_evidence_ref: `.agents/constraints/measurements/${String(c['id'])}.json`,
      shadow_samples: 20,
      true_positives: 20,
      false_positives: 0,
    },
  }));
  repo.write(INDEX, `${JSON.stringify(idx, null, 2)}\n`);
}

/** `findings compile --format json`: the exit code, the diagnostics and the changes. */
export interface CompileJson {
  code: number;
  diagnostics: { ruleId: string; severity: string; message: string; file: string; line: number }[];
  changes: { path: string; action: string }[];
}

export const compileJson = async (repo: TestRepo, ...args: string[]): Promise<CompileJson> => {
  const r = await runFindings(['compile', '--root', repo.root, '--format', 'json', ...args], { cwd: repo.root });
  return { code: r.code, ...(JSON.parse(r.stdout) as Omit<CompileJson, 'code'>) };
};
