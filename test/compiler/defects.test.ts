/** Regression tests for reviewed compiler defects (one describe per defect). */
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REG } from './entries.js';
import { compileJson, finding, withFixtures } from '../helpers/active-finding.js';
import { makeRepo, runFindings, tempDir, type TestRepo } from '../helpers/repo.js';

describe('defect 1: the canonical line per dedup_key is the active one, else the latest', () => {
  const key = { dedup_key: 'test-gap|shared|test-gap' };
  it('promotes the active line when a later line with the same key is retired', async () => {
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-a', key) + REG('f-b', { ...key, status: 'retired' }) });
    const r = await compileJson(repo);
    expect(r.code).toBe(0);
    expect(repo.exists('.agents/findings/f-a.md')).toBe(true);
    expect(repo.exists('.agents/planning-rules/f-a.md')).toBe(true);
  });

  it('`findings retire` of one duplicate leaves the active finding compiled', async () => {
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-a', key) + REG('f-b', key) });
    await compileJson(repo);
    expect(repo.exists('.agents/planning-rules/f-a.md')).toBe(true);
    expect((await runFindings(['retire', 'f-b', '--root', repo.root], { cwd: repo.root })).code).toBe(0);
    const r = await compileJson(repo);
    expect(r.code).toBe(0);
    expect(repo.read('.agents/findings/f-a.md')).toContain('status: "active"');
    expect(repo.exists('.agents/planning-rules/f-a.md')).toBe(true);
  });
});

/** A mechanical finding with no applies_to block, compiled to every target unless told. */
const mechanical = (id: string, statusLine = 'status: "active"', targets = '["plan", "pre-mortem", "constraint"]'): string =>
  finding(id, undefined, { statusLine, targets, appliesTo: false });
const indexEntries = (repo: TestRepo): { id: string; status: string; enforcement_mode: string; evidence: Record<string, unknown> }[] =>
  (
    JSON.parse(repo.read('.agents/constraints/index.json')) as {
      constraints: { id: string; status: string; enforcement_mode: string; evidence: Record<string, unknown> }[];
    }
  ).constraints;

describe('defect 3: a registry retirement holds even when the artifact cannot be edited', () => {
  it('warns, and leaves no planning rule, no pre-mortem check and only a retired index entry', async () => {
    const repo = makeRepo({ '.agents/findings/f-m.md': mechanical('f-m', '"status": "active"') });
    withFixtures(repo, 'f-m');
    await compileJson(repo);
    expect(repo.exists('.agents/planning-rules/f-m.md')).toBe(true);
    expect(repo.exists('.agents/pre-mortem-checks/f-m.md')).toBe(true);
    expect(indexEntries(repo).map((e) => e.status)).toEqual(['shadow']);
    repo.write('.agents/findings/registry.jsonl', REG('f-m', { status: 'retired', dedup_key: 'k|f-m|test-gap' }));
    const r = await compileJson(repo);
    expect(r.code).toBe(0);
    expect(r.diagnostics.map((d) => d.ruleId)).toContain('compiler/lifecycle');
    expect(repo.read('.agents/findings/f-m.md')).toContain('"status": "active"');
    expect(repo.exists('.agents/planning-rules/f-m.md')).toBe(false);
    expect(repo.exists('.agents/pre-mortem-checks/f-m.md')).toBe(false);
    expect(indexEntries(repo).map((e) => `${e.status}/${e.enforcement_mode}`)).toEqual(['retired/off']);
    expect((await compileJson(repo, '--check')).code).toBe(0);
  });
});

describe('defect 7: carrying a lifecycle change keeps every other byte, a UTF-8 BOM included', () => {
  it('rewrites only the status line of a BOM + CRLF artifact', async () => {
    const original = `\uFEFF${mechanical('f-m').replace(/\n/g, '\r\n')}`;
    const repo = makeRepo({
      '.agents/findings/f-m.md': original,
      '.agents/findings/registry.jsonl': REG('f-m', { status: 'retired', dedup_key: 'k|f-m|test-gap' }),
    });
    withFixtures(repo, 'f-m');
    const r = await compileJson(repo);
    expect(r.code).toBe(0);
    const bytes = readFileSync(path.join(repo.root, '.agents/findings/f-m.md'));
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.toString('utf8')).toBe(original.replace('status: "active"\r\n', 'status: "retired"\r\n'));
    expect((await compileJson(repo, '--check')).code).toBe(0);
  });
});

describe('defect 5: no promotion of an artifact over the size cap', () => {
  it('warns naming the registry line and promotes nothing for it; the rest compiles and validates', async () => {
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-ok') + REG('f-big', { pattern: 'x'.repeat(400 * 1024) }) });
    const r = await compileJson(repo);
    expect(r.code).toBe(0);
    const d = r.diagnostics.find((x) => x.ruleId === 'compiler/too-large');
    expect(d).toMatchObject({ file: '.agents/findings/registry.jsonl', line: 2, severity: 'warning' });
    expect(repo.exists('.agents/findings/f-big.md')).toBe(false);
    expect(repo.exists('.agents/findings/f-ok.md')).toBe(true);
    const again = await compileJson(repo);
    expect(again.code).toBe(0);
    expect(again.changes).toEqual([]);
    expect(again.diagnostics.map((x) => x.ruleId)).not.toContain('artifact/too-large');
  });
});

describe('defect 4: only `findings constraint retire` makes a retirement sticky', () => {
  const activate = (repo: TestRepo): void => {
    // What `findings constraint activate` leaves behind (it needs a measured git history to run).
    const idx = JSON.parse(repo.read('.agents/constraints/index.json')) as { constraints: Record<string, unknown>[] };
    idx.constraints = idx.constraints.map((c) => ({
      ...c,
      status: 'active',
      enforcement_mode: 'block',
      evidence: {
        ...(c['evidence'] as object),
        precision_evidence_ref: '.agents/constraints/measurements/f-m.json',
        shadow_samples: 20,
        true_positives: 20,
        false_positives: 0,
      },
    }));
    repo.write('.agents/constraints/index.json', `${JSON.stringify(idx, null, 2)}\n`);
  };
  const setStatus = (repo: TestRepo, status: string): void =>
    repo.write('.agents/findings/f-m.md', mechanical('f-m', `status: "${status}"`));
  const state = (repo: TestRepo): string =>
    indexEntries(repo)
      .map((e) => `${e.status}/${e.enforcement_mode}`)
      .join(',');

  it('(a) a constraint retired by `findings constraint retire` stays retired across recompiles and a draft round trip', async () => {
    const repo = makeRepo({ '.agents/findings/f-m.md': mechanical('f-m') });
    withFixtures(repo, 'f-m');
    await compileJson(repo);
    activate(repo);
    await compileJson(repo);
    expect(state(repo)).toBe('active/block');
    const retire = await runFindings(['constraint', 'retire', 'f-m', '--root', repo.root], { cwd: repo.root });
    expect(retire.code).toBe(0);
    expect(state(repo)).toBe('retired/off');
    await compileJson(repo);
    await compileJson(repo);
    expect(state(repo)).toBe('retired/off');
    setStatus(repo, 'draft');
    await compileJson(repo);
    expect(state(repo)).toBe('retired/off');
    setStatus(repo, 'active');
    await compileJson(repo);
    expect(state(repo)).toBe('retired/off');
  });

  it('(b) draft → retired by compile → active again → back to shadow (also from active)', async () => {
    const repo = makeRepo({ '.agents/findings/f-m.md': mechanical('f-m') });
    withFixtures(repo, 'f-m');
    await compileJson(repo);
    expect(state(repo)).toBe('shadow/warn');
    setStatus(repo, 'draft');
    await compileJson(repo);
    expect(state(repo)).toBe('retired/off');
    setStatus(repo, 'active');
    await compileJson(repo);
    expect(state(repo)).toBe('shadow/warn');
    activate(repo);
    await compileJson(repo);
    expect(state(repo)).toBe('active/block');
    setStatus(repo, 'draft');
    await compileJson(repo);
    expect(state(repo)).toBe('retired/off');
    setStatus(repo, 'active');
    await compileJson(repo);
    expect(state(repo)).toBe('shadow/warn');
    expect(indexEntries(repo)[0]!.evidence['precision_evidence_ref']).toBeUndefined();
    expect((await compileJson(repo, '--check')).code).toBe(0);
  });
});

describe('defect 6: an unreadable registry or findings folder is exit 2, not "no findings"', () => {
  it('a registry that is a folder exits 2 naming it', async () => {
    const repo = makeRepo();
    mkdirSync(path.join(repo.root, '.agents/findings/registry.jsonl'), { recursive: true });
    for (const extra of [[], ['--check']]) {
      const r = await runFindings(['compile', '--root', repo.root, ...extra], { cwd: repo.root });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('.agents/findings/registry.jsonl');
    }
    expect(repo.exists('.agents/constraints/index.json')).toBe(false);
  });

  it('a findings "folder" that is a file exits 2 naming it', async () => {
    const repo = makeRepo({ '.agents/findings': 'not a folder\n' });
    const r = await runFindings(['compile', '--root', repo.root], { cwd: repo.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.agents/findings');
    expect(repo.exists('.agents/constraints/index.json')).toBe(false);
  });

  it('a missing registry and findings folder still compile to nothing (exit 0)', async () => {
    const repo = makeRepo();
    expect((await runFindings(['compile', '--root', repo.root], { cwd: repo.root })).code).toBe(0);
  });
});

describe('defect 2: nothing is written or removed through an output folder that leaves the root', () => {
  it('a symlinked planning-rules folder: error, exit 1, the outside folder untouched, the rest compiled', async () => {
    const outside = tempDir('findings-outside-');
    writeFileSync(path.join(outside, 'NOTES.md'), 'keep me\n');
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-1') });
    symlinkSync(outside, path.join(repo.root, '.agents/planning-rules'));
    for (const extra of [['--check'], []]) {
      const r = await compileJson(repo, ...extra);
      expect(r.code).toBe(1);
      expect(r.diagnostics.find((d) => d.ruleId === 'compiler/output-outside-root')).toMatchObject({
        file: '.agents/planning-rules',
        severity: 'error',
      });
      expect(r.changes.some((c) => c.path.startsWith('.agents/planning-rules/'))).toBe(false);
    }
    expect(readdirSync(outside)).toEqual(['NOTES.md']);
    expect(readFileSync(path.join(outside, 'NOTES.md'), 'utf8')).toBe('keep me\n');
    expect(repo.exists('.agents/pre-mortem-checks/f-1.md')).toBe(true);
    expect(repo.exists('.agents/findings/f-1.md')).toBe(true);
  });

  it('a symlinked constraints folder: nothing at all is written there (not even the lock)', async () => {
    const outside = tempDir('findings-outside-');
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-1') });
    symlinkSync(outside, path.join(repo.root, '.agents/constraints'));
    const r = await compileJson(repo);
    expect(r.code).toBe(1);
    expect(r.diagnostics.map((d) => `${d.ruleId} ${d.file}`)).toContain('compiler/output-outside-root .agents/constraints');
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a symlinked .agents folder: nothing is written outside', async () => {
    const outside = tempDir('findings-outside-');
    mkdirSync(path.join(outside, 'findings'));
    writeFileSync(path.join(outside, 'findings/registry.jsonl'), REG('f-1'));
    const repo = makeRepo();
    symlinkSync(outside, path.join(repo.root, '.agents'));
    const r = await compileJson(repo);
    expect(r.code).toBe(1);
    expect(readdirSync(outside)).toEqual(['findings']);
    expect(readdirSync(path.join(outside, 'findings'))).toEqual(['registry.jsonl']);
    expect(existsSync(path.join(repo.root, '.agents/planning-rules'))).toBe(false);
  });
});

describe('defect 8: compile sweeps every temp file a killed writer can leave', () => {
  it('removes index.json.<digits>, Markdown temps and parse-cache temps; leaves other names alone', async () => {
    const repo = makeRepo({ '.agents/findings/registry.jsonl': REG('f-1') });
    await compileJson(repo);
    const cacheDir = path.join(repo.root, '.git/findings-compiler');
    expect(existsSync(path.join(cacheDir, 'parse-cache.json'))).toBe(true);
    repo.write('.agents/constraints/index.json.2846193021', '{"half":');
    repo.write('.agents/constraints/index.json.bak', 'mine\n');
    repo.write('.agents/planning-rules/.f-1.md.findings-999-3.tmp', 'half');
    writeFileSync(path.join(cacheDir, '.parse-cache.json.findings-999-4.tmp'), '{');
    repo.write('.agents/findings/registry.jsonl', REG('f-1') + REG('f-2'));
    const r = await compileJson(repo);
    expect(r.code).toBe(0);
    expect(readdirSync(path.join(repo.root, '.agents/constraints')).sort()).toEqual(['index.json', 'index.json.bak']);
    expect(readdirSync(path.join(repo.root, '.agents/planning-rules')).sort()).toEqual(['f-1.md', 'f-2.md']);
    expect(readdirSync(cacheDir)).toEqual(['parse-cache.json']);
  });

  it('--check removes nothing', async () => {
    const repo = makeRepo();
    await compileJson(repo);
    repo.write('.agents/constraints/index.json.12', 'x');
    await compileJson(repo, '--check');
    expect(repo.exists('.agents/constraints/index.json.12')).toBe(true);
  });
});
