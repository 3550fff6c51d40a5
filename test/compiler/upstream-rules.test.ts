/**
 * Sharing `.agents/` with the agentops tooling (docs/compiler.md): upstream's reader of rule
 * files (INTEROP.md "Compiled rule files", copied in test/fixtures/agentops-tooling/) reads this
 * project's planning rules and pre-mortem checks as pattern, question and checklist item; rule
 * files upstream wrote with the same meaning are left as they are; upstream's
 * `.agents/premortem-checks/` folder is read and never rewritten or pruned.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledDrift } from '../../compiler/drift.js';
import { readRuleAsUpstream, sameRuleMeaning } from '../../compiler/upstream-rule.js';
import { indexFiles } from '../../src/repo-files.js';
import { FIXTURES, makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';
import { REG } from './entries.js';

const DIR = path.join(FIXTURES, 'compiler/upstream-rules');
const ID = 'f-2026-05-01-001';
const ITEMS = [
  'Pattern: A retry loop has no overall deadline.',
  'Ask: Does every retry loop stop at a deadline?',
  'Do: Give each retry loop a total deadline and test it.',
];
const fixture = (rel: string): string => readFileSync(path.join(DIR, rel), 'utf8');

const compileJson = async (repo: TestRepo, ...args: string[]) => {
  const r = await runFindings(['compile', '--root', repo.root, '--format', 'json', ...args], { cwd: repo.root });
  const out = JSON.parse(r.stdout) as { changes: { path: string; action: string }[] };
  // The (empty) constraint index is created on the first compile; only rule files matter here.
  return { code: r.code, changes: out.changes.filter((c) => !c.path.startsWith('.agents/constraints/')) };
};

/** The fixture repository with only the upstream-written rule files `keep` accepts. */
function repoWith(keep: (rel: string) => boolean): TestRepo {
  const repo = makeRepo();
  repo.copy(path.join(DIR, 'repo'), '.');
  for (const dir of ['.agents/planning-rules', '.agents/premortem-checks']) {
    for (const name of readdirSync(path.join(repo.root, dir))) if (!keep(`${dir}/${name}`)) rmSync(path.join(repo.root, dir, name));
  }
  return repo;
}

describe('readRuleAsUpstream (INTEROP.md "Compiled rule files")', () => {
  it('drops front matter, headings, the "Prevent this known failure mode:" line and - Source: items; keeps the first three items', () => {
    const text = [
      '---',
      'id: "x"',
      '---',
      '# Heading',
      'Prevent this known failure mode:',
      '',
      '- One',
      '- Source: a.md',
      '- Two',
      '  - Three  ',
      '- Four',
    ].join('\n');
    expect(readRuleAsUpstream(text)).toEqual(['One', 'Two', 'Three']);
  });

  it('takes a plain line before the first item as the first item, and no plain line after it', () => {
    expect(readRuleAsUpstream('Intro sentence.\n- A\nlater prose\n- B\n- C\n')).toEqual(['Intro sentence.', 'A', 'B']);
  });

  it("reads this project's previous template wrong (the bug): the introduction sentence comes first, the checklist item is lost", () => {
    const items = readRuleAsUpstream(fixture('old-template-rule.md'));
    expect(items[0]).toBe('A known failure mode to plan around before work is split up or sequenced:');
    expect(items).not.toContain(ITEMS[2]);
  });
});

describe('compiled rule files, as upstream reads them', () => {
  it('a planning rule and a pre-mortem check read as pattern, question and checklist item', async () => {
    const repo = repoWith(() => false);
    expect((await compileJson(repo)).code).toBe(0);
    expect(readRuleAsUpstream(repo.read(`.agents/planning-rules/${ID}.md`))).toEqual(ITEMS);
    expect(readRuleAsUpstream(repo.read(`.agents/pre-mortem-checks/${ID}.md`))).toEqual(ITEMS);
  });

  it('promoted findings too (registry → artifact → rules)', async () => {
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-9') });
    expect((await compileJson(repo)).code).toBe(0);
    for (const p of ['.agents/planning-rules/f-9.md', '.agents/pre-mortem-checks/f-9.md'])
      expect(readRuleAsUpstream(repo.read(p))).toEqual(['Pattern: Pattern f-9', 'Ask: Q?', 'Do: Do.']);
  });
});

describe('sameRuleMeaning', () => {
  const ours = fixture('old-template-rule.md').replace(
    'A known failure mode to plan around before work is split up or sequenced:',
    'Prevent this known failure mode:',
  );
  const theirs = fixture(`repo/.agents/planning-rules/${ID}.md`);

  it('ignores quoting and the heading (upstream words its title its own way)', () => {
    expect(theirs).not.toBe(ours);
    expect(sameRuleMeaning(theirs, ours)).toBe(true);
  });

  it.each([
    ['another checklist item', (t: string) => t.replace('and test it.', 'and log it.')],
    ['another id', (t: string) => t.replace('id: "f-2026-05-01-001"\n', 'id: "f-2026-05-01-002"\n')],
    ['another applicable_when', (t: string) => t.replace('applicable_when: ["validation-gap"]', 'applicable_when: ["security"]')],
    ['an introduction sentence', (t: string) => t.replace('Prevent this known failure mode:', 'Plan around this:')],
    ['no front matter', (t: string) => t.slice(t.indexOf('# '))],
  ])('differs with %s', (_, edit) => {
    expect(sameRuleMeaning(edit(theirs), ours)).toBe(false);
  });
});

describe('rule files written by the agentops compiler', () => {
  it('a same-meaning planning rule is kept byte for byte: compile changes nothing, --check finds no drift', async () => {
    const repo = repoWith((p) => p.startsWith('.agents/planning-rules/'));
    const before = repo.read(`.agents/planning-rules/${ID}.md`);
    const run = await compileJson(repo);
    expect(run.changes).toEqual([{ path: `.agents/pre-mortem-checks/${ID}.md`, action: 'created' }]);
    expect(repo.read(`.agents/planning-rules/${ID}.md`)).toBe(before);
    expect(await compileJson(repo, '--check')).toEqual({ code: 0, changes: [] });
  });

  it('a planning rule whose checklist item differs is rewritten', async () => {
    const repo = repoWith((p) => p.startsWith('.agents/planning-rules/'));
    const file = `.agents/planning-rules/${ID}.md`;
    repo.write(file, repo.read(file).replace('and test it.', 'eventually.'));
    expect((await compileJson(repo, '--check')).changes).toContainEqual({ path: file, action: 'stale' });
    await compileJson(repo);
    expect(readRuleAsUpstream(repo.read(file))).toEqual(ITEMS);
  });

  it("this project's previous template is rewritten once, then stays", async () => {
    const repo = repoWith(() => false);
    repo.write(`.agents/planning-rules/${ID}.md`, fixture('old-template-rule.md'));
    expect((await compileJson(repo)).changes).toContainEqual({ path: `.agents/planning-rules/${ID}.md`, action: 'updated' });
    expect((await compileJson(repo, '--check')).changes).toEqual([]);
  });
});

describe('.agents/premortem-checks/ (the agentops folder name)', () => {
  it('a same-meaning check there stands for ours: nothing is created, nothing drifts, it is untouched', async () => {
    const repo = repoWith((p) => p === `.agents/premortem-checks/${ID}.md` || p.startsWith('.agents/planning-rules/'));
    const before = repo.read(`.agents/premortem-checks/${ID}.md`);
    expect((await compileJson(repo)).changes).toEqual([]);
    expect(await compileJson(repo, '--check')).toEqual({ code: 0, changes: [] });
    expect(repo.exists(`.agents/pre-mortem-checks/${ID}.md`)).toBe(false);
    expect(repo.read(`.agents/premortem-checks/${ID}.md`)).toBe(before);
  });

  it('a check there with another meaning: ours is written in .agents/pre-mortem-checks/, theirs is left alone', async () => {
    const repo = repoWith((p) => p === `.agents/premortem-checks/${ID}.md`);
    const theirs = `.agents/premortem-checks/${ID}.md`;
    repo.write(theirs, repo.read(theirs).replace('and test it.', 'eventually.'));
    const before = repo.read(theirs);
    const run = await compileJson(repo);
    expect(run.changes).toContainEqual({ path: `.agents/pre-mortem-checks/${ID}.md`, action: 'created' });
    expect(run.changes.filter((c) => c.path.startsWith('.agents/premortem-checks/'))).toEqual([]);
    expect(repo.read(theirs)).toBe(before);
    expect(await compileJson(repo, '--check')).toEqual({ code: 0, changes: [] });
  });

  it('a check there whose finding this project does not have is not an orphan: never removed', async () => {
    const repo = repoWith((p) => p.endsWith('f-2026-05-09-009.md'));
    expect((await compileJson(repo)).changes.filter((c) => c.path.includes('f-2026-05-09-009'))).toEqual([]);
    expect(repo.exists('.agents/premortem-checks/f-2026-05-09-009.md')).toBe(true);
    expect(await compileJson(repo, '--check')).toEqual({ code: 0, changes: [] });
  });

  it("the hooks see it too: drift on the staged content is empty once upstream's check is staged", async () => {
    const repo = repoWith((p) => p === `.agents/premortem-checks/${ID}.md` || p.startsWith('.agents/planning-rules/'));
    await compileJson(repo);
    repo.git('add', '-A');
    expect((await compiledDrift(indexFiles(repo.root))).drift).toEqual([]);
  });

  it('when both folders hold a check for one id, ours is the one compile keeps current', async () => {
    const repo = repoWith((p) => p === `.agents/premortem-checks/${ID}.md`);
    repo.write(`.agents/pre-mortem-checks/${ID}.md`, 'stale\n');
    expect((await compileJson(repo)).changes).toContainEqual({ path: `.agents/pre-mortem-checks/${ID}.md`, action: 'updated' });
    expect(readRuleAsUpstream(repo.read(`.agents/pre-mortem-checks/${ID}.md`))).toEqual(ITEMS);
  });
});
