/** The compile command, replay qualification, drift on staged content, and validate's artifact rules. */
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledDrift } from '../../compiler/drift.js';
import { indexFiles } from '../../src/repo-files.js';
import { compileJson, EVAL, indexIds, mechanical, REG, withFixtures } from './entries.js';
import { makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';

describe('findings compile', () => {
  it('--check lists missing files and exits 1; compile creates them; --check then exits 0', async () => {
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-1') });
    const check = await compileJson(repo, '--check');
    expect(check.code).toBe(1);
    expect(check.changes).toEqual([
      { path: '.agents/findings/f-1.md', action: 'missing' },
      { path: '.agents/planning-rules/f-1.md', action: 'missing' },
      { path: '.agents/pre-mortem-checks/f-1.md', action: 'missing' },
    ]);
    expect(repo.exists('.agents/findings/f-1.md')).toBe(false);
    const run = await runFindings(['compile', '--root', repo.root], { cwd: repo.root });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('created  .agents/findings/f-1.md');
    expect(run.stdout).toContain('4 created, 0 updated, 0 removed');
    expect((await compileJson(repo, '--check')).code).toBe(0);
    repo.write('.agents/planning-rules/f-1.md', 'edited\n');
    repo.write('.agents/planning-rules/old.md', 'orphan\n');
    const drift = await compileJson(repo, '--check');
    expect(drift.changes).toEqual([
      { path: '.agents/planning-rules/f-1.md', action: 'stale' },
      { path: '.agents/planning-rules/old.md', action: 'orphaned' },
    ]);
    const fix = await compileJson(repo);
    expect(fix.changes.map((c) => c.action)).toEqual(['updated', 'removed']);
    expect(repo.exists('.agents/planning-rules/old.md')).toBe(false);
  });

  it('an invalid artifact exits 1 naming the field, and the other findings still compile', async () => {
    const repo = makeRepo({
      '.agents/findings/registry.jsonl': REG('f-ok'),
      '.agents/findings/f-bad.md': '---\nid: "f-bad"\ntype: "finding"\n---\n',
    });
    const r = await compileJson(repo);
    expect(r.code).toBe(1);
    expect(
      r.diagnostics.some((d) => d.file === '.agents/findings/f-bad.md' && d.ruleId === 'artifact/schema' && d.message.includes('"title"')),
    ).toBe(true);
    expect(repo.exists('.agents/planning-rules/f-ok.md')).toBe(true);
  });

  it('never overwrites an existing artifact by promotion', async () => {
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-1'), '.agents/findings/f-1.md': '---\nbroken: [\n---\n' });
    const r = await compileJson(repo);
    expect(r.code).toBe(1);
    expect(repo.read('.agents/findings/f-1.md')).toBe('---\nbroken: [\n---\n');
  });

  it('qualifies a regex constraint as shadow + warn', async () => {
    const repo = makeRepo({ '.agents/findings/f-m.md': mechanical('f-m', EVAL) });
    withFixtures(repo, 'f-m');
    const r = await compileJson(repo);
    expect(r.code).toBe(0);
    const idx = JSON.parse(repo.read('.agents/constraints/index.json')) as { constraints: Record<string, unknown>[] };
    expect(idx.constraints[0]).toMatchObject({ id: 'f-m', status: 'shadow', enforcement_mode: 'warn', compiled_at: '2026-01-02' });
    // The checklist item stays in the artifact (upstream's decoder has no such key).
    expect(idx.constraints[0]).not.toHaveProperty('checklist_item');
  });

  const refusals: [string, (repo: TestRepo) => void, string][] = [
    [
      'an unsafe pattern (a+)+',
      (repo) => {
        repo.write('.agents/findings/f-m.md', mechanical('f-m', '    kind: "regex"\n    pattern: "(a+)+$"'));
        withFixtures(repo, 'f-m', 'aaaa!\n');
      },
      'compiler/unsafe-pattern',
    ],
    [
      'a positive fixture that is not flagged',
      (repo) => {
        repo.write('.agents/findings/f-m.md', mechanical('f-m', EVAL));
        withFixtures(repo, 'f-m', 'clean\n');
      },
      'compiler/replay',
    ],
    [
      'a missing fixture',
      (repo) => {
        repo.write('.agents/findings/f-m.md', mechanical('f-m', EVAL));
      },
      'compiler/fixture-missing',
    ],
    [
      'a ref with ..',
      (repo) => {
        repo.write('.agents/findings/f-m.md', mechanical('f-m', EVAL, '../outside.txt'));
        withFixtures(repo, 'f-m');
      },
      'compiler/fixture-ref',
    ],
    [
      'an absolute ref',
      (repo) => {
        repo.write('.agents/findings/f-m.md', mechanical('f-m', EVAL, '/etc/passwd'));
        withFixtures(repo, 'f-m');
      },
      'compiler/fixture-ref',
    ],
    [
      'a symlink leaving the root',
      (repo) => {
        repo.write('.agents/findings/f-m.md', mechanical('f-m', EVAL, '.agents/constraints/fixtures/f-m/link.txt'));
        withFixtures(repo, 'f-m');
        symlinkSync('/etc/hostname', path.join(repo.root, '.agents/constraints/fixtures/f-m/link.txt'));
      },
      'compiler/fixture-ref',
    ],
    [
      'an advisory-only detector kind',
      (repo) => {
        repo.write(
          '.agents/findings/f-m.md',
          mechanical('f-m', '    kind: "paired_files"\n    file_pattern: "src/*.ts"\n    companion: "test/*.ts"'),
        );
        withFixtures(repo, 'f-m');
      },
      'compiler/not-enforced',
    ],
    [
      'must_contain whose positive contains the pattern',
      (repo) => {
        repo.write(
          '.agents/findings/f-m.md',
          mechanical('f-m', '    kind: "content_pattern"\n    mode: "must_contain"\n    pattern: "eval"'),
        );
        withFixtures(repo, 'f-m');
      },
      'compiler/replay',
    ],
  ];
  for (const [name, setup, ruleId] of refusals) {
    it(`no index entry for ${name}; the planning rule is still written`, async () => {
      const repo = makeRepo();
      setup(repo);
      const r = await compileJson(repo);
      expect(r.diagnostics.map((d) => d.ruleId)).toContain(ruleId);
      expect(indexIds(repo)).toEqual([]);
      expect(repo.exists('.agents/planning-rules/f-m.md')).toBe(true);
    });
  }

  it('keeps a symlink inside the root working, and refuses a symlink blob in the index', async () => {
    const repo = makeRepo({ '.agents/findings/f-m.md': mechanical('f-m', EVAL, '.agents/constraints/fixtures/f-m/link.txt') });
    withFixtures(repo, 'f-m');
    symlinkSync('bad.txt', path.join(repo.root, '.agents/constraints/fixtures/f-m/link.txt'));
    await compileJson(repo);
    expect(indexIds(repo)).toEqual(['f-m']);
    repo.git('add', '-A');
    const staged = await compiledDrift(indexFiles(repo.root));
    expect(staged.diagnostics.some((d) => d.ruleId === 'compiler/fixture-ref' && d.message.includes('symlink in git'))).toBe(true);
    expect(staged.drift).toEqual([{ path: '.agents/constraints/index.json', kind: 'stale' }]);
  });

  it('drift on staged content: a staged registry line without its promoted artifact is drift', async () => {
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-1') });
    await compileJson(repo);
    repo.git('add', '.agents/findings/registry.jsonl');
    const d = await compiledDrift(indexFiles(repo.root));
    expect(d.drift.map((x) => `${x.kind} ${x.path}`)).toEqual([
      'missing .agents/constraints/index.json',
      'missing .agents/findings/f-1.md',
      'missing .agents/planning-rules/f-1.md',
      'missing .agents/pre-mortem-checks/f-1.md',
    ]);
    repo.git('add', '-A');
    expect((await compiledDrift(indexFiles(repo.root))).drift).toEqual([]);
  });

  it('leaves an unreadable index alone with an error instead of dropping its active entries', async () => {
    const repo = makeRepo({ '.agents/constraints/index.json': '{ not json' });
    const r = await compileJson(repo);
    expect(r.code).toBe(1);
    expect(r.diagnostics.map((d) => d.ruleId)).toContain('compiler/index-unreadable');
    expect(repo.read('.agents/constraints/index.json')).toBe('{ not json');
  });

  it('does not depend on the time zone, locale or clock', async () => {
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-b') + REG('f-a') });
    await compileJson(repo);
    process.env['TZ'] = 'Pacific/Kiritimati';
    const r = await runFindings(['compile', '--root', repo.root, '--check'], {
      cwd: repo.root,
      env: { FINDINGS_NOW: '2099-01-01T00:00:00Z', LC_ALL: 'tr_TR.UTF-8' },
    });
    delete process.env['TZ'];
    expect(r.code).toBe(0);
  });

  it('exit 2 for bad usage', async () => {
    const r = await runFindings(['compile', '--bogus'], { cwd: makeRepo().root });
    expect(r.code).toBe(2);
  });
});

describe('findings validate on artifacts and the index', () => {
  it('reports id/file name mismatch, missing superseded_by targets and enforcement mismatches', async () => {
    const base = mechanical('f-x', EVAL);
    const index = {
      version: 1,
      constraints: [
        {
          id: 'f-s',
          finding_id: 'f-s',
          title: 't',
          status: 'active',
          enforcement_mode: 'warn',
          source_artifact: 'a',
          review_file: null,
          compiled_at: 'x',
          applies_to: { scope: 'files', path_globs: ['**'] },
          detector: { kind: 'regex', pattern: 'a' },
          evidence: { positive_refs: [], negative_control_refs: [] },
        },
      ],
    };
    const repo = makeRepo({
      '.agents/findings/f-y.md': base,
      '.agents/findings/f-s.md': base
        .replace(/f-x/g, 'f-s')
        .replace('status: "active"', 'status: "superseded"\nsuperseded_by: "f-nowhere"'),
      '.agents/constraints/index.json': `${JSON.stringify(index)}\n`,
    });
    const r = await runFindings(['validate', '--root', repo.root, '--format', 'json'], { cwd: repo.root });
    expect(r.code).toBe(1);
    const rules = JSON.parse(r.stdout) as { diagnostics?: { ruleId: string }[] } | { ruleId: string }[];
    const list = Array.isArray(rules) ? rules : (rules.diagnostics ?? []);
    const ids = list.map((d) => d.ruleId);
    expect(ids).toContain('artifact/id-mismatch');
    expect(ids).toContain('artifact/superseded-by');
    expect(ids).toContain('constraint-index/enforcement');
  });
});
