import { runFindings, type TestRepo } from '../helpers/repo.js';
/** A registry line for compiler tests: a valid active entry, with fields overridable. */
export const REG = (id: string, extra: Record<string, unknown> = {}): string =>
  `${JSON.stringify({
    id,
    version: 1,
    tier: 'local',
    source: { repo: 'r', session: 's', file: 'f.md', skill: 'k' },
    date: '2026-01-01',
    severity: 'significant',
    category: 'test-gap',
    pattern: `Pattern ${id}`,
    detection_question: 'Q?',
    checklist_item: 'Do.',
    applicable_languages: ['ts'],
    applicable_when: ['test-gap'],
    status: 'active',
    superseded_by: null,
    dedup_key: `test-gap|pattern-${id}|test-gap`,
    hit_count: 0,
    last_cited: null,
    ttl_days: 30,
    confidence: 'high',
    ...extra,
  })}\n`;

/** A mechanical finding artifact (front matter + body) with a detector block and fixture refs. */
export function mechanical(
  id: string,
  detector: string,
  pos = `.agents/constraints/fixtures/${id}/bad.txt`,
  neg = `.agents/constraints/fixtures/${id}/good.txt`,
  extra = '',
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
    'status: "active"',
    'compiler_targets: ["plan", "constraint"]',
    'scope_tags: ["test-gap"]',
    `dedup_key: "k|${id}|test-gap"`,
    'applicable_when: ["test-gap"]',
    'applicable_languages: []',
    extra,
    'compiler:',
    '  detector:',
    detector,
    '  evidence:',
    `    positive_refs: ["${pos}"]`,
    `    negative_control_refs: ["${neg}"]`,
    '---',
    '',
    'Body.',
    '',
  ]
    .filter((l) => l !== '')
    .join('\n');
}

export function withFixtures(repo: TestRepo, id: string, bad = 'eval(1)\n', good = 'ok\n'): void {
  repo.write(`.agents/constraints/fixtures/${id}/bad.txt`, bad);
  repo.write(`.agents/constraints/fixtures/${id}/good.txt`, good);
}

export const EVAL = '    kind: "regex"\n    pattern: "eval\\\\("';
export const compileJson = async (repo: TestRepo, ...args: string[]) => {
  const r = await runFindings(['compile', '--root', repo.root, '--format', 'json', ...args], { cwd: repo.root });
  return {
    code: r.code,
    ...(JSON.parse(r.stdout) as {
      diagnostics: { ruleId: string; severity: string; message: string; file: string }[];
      changes: { path: string; action: string }[];
    }),
  };
};
export const indexIds = (repo: TestRepo): string[] =>
  (JSON.parse(repo.read('.agents/constraints/index.json')) as { constraints: { id: string }[] }).constraints.map((c) => c.id);
