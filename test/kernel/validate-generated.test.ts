import { describe, expect, it } from 'vitest';
import { classifyPath } from '../../src/validate/index.js';
import { makeRepo, runFindings } from '../helpers/repo.js';

describe('findings validate on generated files and settings', () => {
  it('routes every layout file to its validator', () => {
    expect(
      [
        '.agents/findings/registry.jsonl',
        '.agents/findings/f-1.md',
        '.agents/findings/candidates.jsonl',
        '.agents/findings/sources.json',
        '.agents/constraints/index.json',
        '.agents/constraints/measurements/f-1.json',
        '.agents/reviews/T-1.jsonl',
        '.agents/tasks/T-1.json',
        '.agents/roles.json',
        '.agents/config.json',
        'src/a.ts',
      ].map(classifyPath),
    ).toEqual([
      'registry',
      'artifact',
      'candidates',
      'sources',
      'constraint-index',
      'measurement',
      'review-ledger',
      'task',
      'roles',
      'config',
      null,
    ]);
  });

  it('reports a broken candidates line, a duplicate class, a bad measurement, sources.json and config', async () => {
    const repo = makeRepo({
      '.agents/findings/candidates.jsonl': '{"class_key":"a"}\n{oops\n',
      '.agents/constraints/measurements/x.json': '{"version": 1}\n',
      '.agents/findings/sources.json': '[]\n',
      '.agents/config.json': '{"activation": {"min_precision": 7}}\n',
    });
    const r = await runFindings(['validate', '--json'], { cwd: repo.root });
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout) as { file: string; line: number; ruleId: string; severity: string }[]).map((d) => [
      d.file,
      d.line,
      d.ruleId.split('/')[0],
      d.severity,
    ]);
    expect(found).toContainEqual(['.agents/findings/candidates.jsonl', 1, 'recur', 'error']);
    expect(found).toContainEqual(['.agents/findings/candidates.jsonl', 2, 'recur', 'error']);
    expect(found.some(([f, , , s]) => f === '.agents/constraints/measurements/x.json' && s === 'error')).toBe(true);
    expect(found.some(([f, , , s]) => f === '.agents/findings/sources.json' && s === 'error')).toBe(true);
    expect(found).toContainEqual(['.agents/config.json', 1, 'config', 'error']);
  });

  it('reports an unknown config key (with a did-you-mean) and invalid config JSON as errors', async () => {
    const repo = makeRepo({
      '.agents/config.json': '{\n  "activation": {\n    "min_labeled_hits": 5\n  }\n}\n',
      'pkg/.agents/config.json': '{"match_budget_ms": 10,}\n',
    });
    const r = await runFindings(['validate', '.agents/config.json', 'pkg/.agents/config.json'], { cwd: repo.root });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '.agents/config.json:3  error  unknown setting "activation.min_labeled_hits" (ignored); did you mean "activation.min_labelled_hits"?  config/unknown-key',
    );
    expect(r.stdout).toMatch(/^pkg\/\.agents\/config\.json:1:24 {2}error {2}invalid JSON: .*config\/invalid-json$/m);
  });

  it('reports a class key that appears twice', async () => {
    const repo = makeRepo();
    const ref = (task: string) => ({
      objective: task,
      task,
      finding_id: `${task}-f`,
      round: 1,
      origin: 'qa',
      ledger_file: `.agents/reviews/${task}.jsonl`,
      ledger_line: 1,
    });
    const candidate = JSON.stringify({
      class_key: 'k',
      derived: false,
      recurrence_count: 2,
      advisory: true,
      evidence: [ref('T-1'), ref('T-2')],
      draft: true,
      proposed_entry: {},
    });
    const recur = await runFindings(['validate', '.agents/findings/candidates.jsonl'], { cwd: repo.root });
    expect(recur.code).toBe(2);
    repo.write('.agents/findings/candidates.jsonl', `${candidate}\n${candidate}\n`);
    const r = await runFindings(['validate', '--json', '.agents/findings/candidates.jsonl'], { cwd: repo.root });
    expect((JSON.parse(r.stdout) as { line: number; ruleId: string }[]).filter((d) => d.ruleId === 'recur/duplicate-class')).toEqual([
      expect.objectContaining({ line: 2 }),
    ]);
  });
});

describe('findings validate on unreadable input', () => {
  it('exits 2 naming the registry when it is a folder', async () => {
    const repo = makeRepo();
    repo.write('.agents/findings/registry.jsonl/x', '');
    const r = await runFindings(['validate'], { cwd: repo.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.agents/findings/registry.jsonl: cannot read the registry');
  });
});
