/**
 * Sharing one `.agents/` folder with the agentops tooling: the constraint index both ways,
 * migration from earlier releases, old ids on the command line, globs (docs/compiler.md "The
 * constraint index", docs/hooks.md "Globs").
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stricterJudgment } from '../../hooks/judgment.js';
import { readMeasurement } from '../../src/lifecycle/store.js';
import { parseConstraintIndex } from '../../src/constraints/index-file.js';
import { compileAppliesTo } from '../../src/match/applies.js';
import { compileDetector, evaluate } from '../../src/match/detector.js';
import { compileJson, finding, INDEX, withFixtures } from '../helpers/active-finding.js';
import { FIXTURES, makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';

const INTEROP = readFileSync(path.join(FIXTURES, 'agentops-tooling/INTEROP.md'), 'utf8');
const UPSTREAM_EXAMPLE = readFileSync(path.join(FIXTURES, 'agentops-tooling/index.upstream-example.json'), 'utf8');

/** The backticked keys of one INTEROP.md bullet, e.g. "Entry keys, in the order upstream writes them". */
function keysAfter(label: string): string[] {
  const at = INTEROP.indexOf(label);
  expect(at).toBeGreaterThan(-1);
  const rest = INTEROP.slice(at + label.length);
  // The list ends at the first full stop that ends a sentence (". " or ".\n").
  const list = rest.slice(0, rest.search(/\.(\s|$)/));
  return [...list.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
}

const ENTRY = keysAfter('Entry keys, in the order upstream writes them:');
const APPLIES = keysAfter('`applies_to`:');
const DETECTOR = keysAfter('`detector`:');
const EVIDENCE = keysAfter('`evidence`:');

/** Keys of `obj` that are in `allowed`, in `allowed`'s order (a check of both membership and order). */
function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  const keys = Object.keys(obj);
  for (const k of keys) expect(allowed, `${where}: "${k}" is not a key upstream accepts`).toContain(k);
  expect(keys, `${where}: upstream's order`).toEqual(allowed.filter((k) => keys.includes(k)));
}

function mechanicalRepo(): TestRepo {
  const repo = makeRepo();
  repo.write('.agents/findings/f-m.md', finding('f-m'));
  withFixtures(repo, 'f-m');
  return repo;
}

describe('1. the index this tool writes is what upstream decodes', () => {
  it('parses the key lists from INTEROP.md', () => {
    expect(ENTRY.slice(0, 3)).toEqual(['id', 'finding_id', 'title']);
    expect(ENTRY.at(-1)).toBe('file');
    expect(APPLIES).toEqual(['scope', 'issue_types', 'path_globs', 'languages']);
    expect(DETECTOR).toContain('exclude');
    expect(EVIDENCE).toContain('precision_evidence_ref');
  });

  it('writes schema_version, ids equal to finding ids, and only upstream keys in its order', async () => {
    const repo = mechanicalRepo();
    // Flags, prefixes and extensions (keys upstream rejects) in the artifact.
    repo.write(
      '.agents/findings/f-flags.md',
      finding('f-flags')
        .replace('    path_globs: ["**/*.js"]', '    path_prefixes: ["src/"]\n    extensions: [".js"]')
        .replace('    kind: "regex"', '    kind: "regex"\n    flags: "i"'),
    );
    withFixtures(repo, 'f-flags');
    const r = await compileJson(repo);
    expect(r.code).toBe(0);
    const written = JSON.parse(repo.read(INDEX)) as Record<string, unknown>;
    expect(Object.keys(written)).toEqual(['schema_version', 'constraints']);
    expect(written['schema_version']).toBe(1);
    const entries = written['constraints'] as Record<string, unknown>[];
    expect(entries.map((e) => e['id'])).toEqual(['f-flags', 'f-m']);
    for (const e of entries) {
      checkKeys(e, ENTRY, `entry ${String(e['id'])}`);
      for (const k of ['id', 'title', 'source', 'status', 'compiled_at', 'file']) expect(e).toHaveProperty(k);
      expect(e['id']).toBe(e['finding_id']);
      expect(e['source']).toBe('finding');
      checkKeys(e['applies_to'] as Record<string, unknown>, APPLIES, 'applies_to');
      checkKeys(e['detector'] as Record<string, unknown>, DETECTOR, 'detector');
      checkKeys(e['evidence'] as Record<string, unknown>, EVIDENCE, 'evidence');
    }
    // What is written validates against the current shape of schemas/constraint-index.schema.json.
    expect((await runFindings(['validate', '--root', repo.root, INDEX], { cwd: repo.root })).code).toBe(0);
    const flags = entries[0]!;
    expect((flags['detector'] as { pattern: string }).pattern).toBe('(?i)eval\\(');
    expect((flags['applies_to'] as { path_globs: string[] }).path_globs).toEqual(['src/*.js']);
  });
});

describe('2. what upstream writes is read with upstream verdicts', () => {
  it('reads index.upstream-example.json unchanged: its active panic\\( blocks cli/x.go', async () => {
    const repo = makeRepo({ 'cli/x.go': 'package main\nfunc main() { panic("x") }\n', 'README.md': 'panic( is fine here\n' });
    repo.write(INDEX, UPSTREAM_EXAMPLE);
    const v = await runFindings(['validate', '--root', repo.root, INDEX], { cwd: repo.root });
    expect(v.code, v.stdout + v.stderr).toBe(0);
    repo.git('add', '-A');
    const c = await runFindings(['check', '--root', repo.root, '--staged', '--format', 'json'], { cwd: repo.root });
    expect(c.code, c.stdout + c.stderr).toBe(1);
    const d = JSON.parse(c.stdout) as { file: string; ruleId: string; severity: string }[];
    expect(d.filter((x) => x.ruleId === 'constraint/f-test-001').map((x) => `${x.file}:${x.severity}`)).toEqual(['cli/x.go:error']);
  });

  it('reads its empty index: validate 0, check 0, compile rebuilds', async () => {
    const repo = mechanicalRepo();
    repo.copy('interop/upstream-empty/index.json', INDEX);
    expect((await runFindings(['validate', '--root', repo.root, INDEX], { cwd: repo.root })).code).toBe(0);
    repo.git('add', '-A');
    expect((await runFindings(['check', '--root', repo.root, '--staged'], { cwd: repo.root })).code).toBe(0);
    expect((await compileJson(repo)).code).toBe(0);
    expect((JSON.parse(repo.read(INDEX)) as { constraints: { id: string }[] }).constraints.map((c) => c.id)).toEqual(['f-m']);
  });

  it('modes, exclude and draft: absent requires, forbid with exclude, draft not enforced', () => {
    const parsed = parseConstraintIndex(readFileSync(path.join(FIXTURES, 'interop/upstream-modes.json'), 'utf8'));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const [absent, draft, forbid] = parsed.index.constraints;
    const m = (e: typeof absent) => {
      const c = compileDetector(e!.detector);
      if (!c.ok) throw new Error(c.problem);
      return c.matcher;
    };
    expect(evaluate(m(absent), 'package x\n').hits).toHaveLength(1);
    expect(evaluate(m(absent), '// Licence: MIT\npackage x\n').hits).toHaveLength(0);
    expect(evaluate(m(forbid), 'FMT.PRINTLN(1)\nfmt.Println(2) // nolint\n').hits.map((h) => h.line)).toEqual([1]);
    expect(draft!.status).toBe('draft');
    for (const mode of ['match', 'present', 'forbid', '', 'must_not_contain']) {
      const c = compileDetector({ kind: 'regex', mode, pattern: 'x' });
      expect(c.ok && c.matcher.mode, mode).toBe('match');
    }
    for (const mode of ['absent', 'require', 'required', 'must_contain']) {
      const c = compileDetector({ kind: 'regex', mode, pattern: 'x' });
      expect(c.ok && c.matcher.mode, mode).toBe('must_contain');
    }
  });

  it('in a commit: draft is not enforced, forbid blocks unless excluded, absent is satisfied; *.go at any depth', async () => {
    const repo = makeRepo({ 'x/y/a.go': '// Licence: MIT\n// TODO\nfmt.Println(1)\nfmt.Println(2) // nolint\n', 'b.go': 'package b\n' });
    repo.copy('interop/upstream-modes.json', INDEX);
    repo.git('add', '-A');
    const c = await runFindings(['check', '--root', repo.root, '--staged', '--format', 'json'], { cwd: repo.root });
    const d = JSON.parse(c.stdout) as { ruleId: string; file: string; line: number }[];
    expect(c.code, c.stdout).toBe(1);
    expect(d.map((x) => `${x.ruleId}@${x.file}:${x.line}`).sort()).toEqual([
      'constraint/f-absent@b.go:1',
      'constraint/f-forbid@x/y/a.go:3',
    ]);
  });
});

describe('3. migration from an earlier release', () => {
  it('reads version 1 with c- ids, and compile rewrites it keeping status and evidence', async () => {
    const repo = mechanicalRepo();
    repo.copy('interop/legacy/index.json', INDEX);
    const parsed = parseConstraintIndex(repo.read(INDEX));
    expect(parsed.ok && parsed.index.constraints.map((c) => c.id)).toEqual(['f-m']);
    const r = await compileJson(repo);
    expect(r.code, JSON.stringify(r.diagnostics)).toBe(0);
    const written = JSON.parse(repo.read(INDEX)) as { schema_version: number; constraints: Record<string, unknown>[] };
    expect(written.schema_version).toBe(1);
    expect(written.constraints[0]).toMatchObject({
      id: 'f-m',
      status: 'active',
      enforcement_mode: 'block',
      evidence: {
        precision_evidence_ref: '.agents/constraints/measurements/c-f-m.json',
        shadow_samples: 20,
        true_positives: 19,
        false_positives: 1,
      },
    });
    expect(written).not.toHaveProperty('version');
  });
});

describe('3. measurement files of an earlier release', () => {
  it('c-<id>.json is read when <id>.json is absent, its detector and applicability in the current shape', async () => {
    const repo = makeRepo();
    repo.copy('interop/legacy/measurements/c-f-m.json', '.agents/constraints/measurements/c-f-m.json');
    const r = await readMeasurement(repo.root, 'f-m');
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(r.ref).toBe('.agents/constraints/measurements/c-f-m.json');
    expect(r.measurement.constraint_id).toBe('f-m');
    expect(r.measurement.detector).toEqual({ kind: 'regex', pattern: '(?i)eval\\(' });
    expect(r.measurement.applies_to).toEqual({ scope: 'files', path_globs: ['*.js'] });
  });
});

describe("3. migration in one commit keeps the gate's stricter judgment quiet", () => {
  it('an index migrating from c-f-m to f-m is the same active constraint, not "retired c-f-m + new f-m"', async () => {
    const repo = mechanicalRepo();
    repo.copy('interop/legacy/index.json', INDEX);
    const before = parseConstraintIndex(repo.read(INDEX));
    expect((await compileJson(repo)).code).toBe(0);
    const after = parseConstraintIndex(repo.read(INDEX));
    if (!before.ok || !after.ok) throw new Error('unreadable index');
    const j = stricterJudgment(before.index, after.index);
    expect(j.held.size).toBe(0);
    expect(j.index.constraints.map((c) => `${c.id}:${c.status}`)).toEqual(['f-m:active']);
  });
});

describe('4. old ids on the command line', () => {
  it('retire c-<id> retires <id> with a one-line note', async () => {
    const repo = mechanicalRepo();
    repo.copy('interop/legacy/index.json', INDEX);
    const r = await runFindings(['constraint', 'retire', 'c-f-m', '--root', repo.root], { cwd: repo.root });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(/"c-f-m" is a constraint id of an earlier release.*"f-m"/);
    expect(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => l.includes('earlier release')),
    ).toHaveLength(1);
    expect((JSON.parse(repo.read(INDEX)) as { constraints: { id: string; status: string }[] }).constraints[0]).toMatchObject({
      id: 'f-m',
      status: 'retired',
    });
  });

  it('FINDINGS_SKIP=c-<id> skips <id> and says so', async () => {
    const repo = makeRepo({ 'cli/x.go': 'panic(1)\n' });
    repo.write(INDEX, UPSTREAM_EXAMPLE.replace(/f-test-001/g, 'f-t'));
    repo.git('add', '-A');
    expect((await runFindings(['check', '--root', repo.root, '--staged'], { cwd: repo.root })).code).toBe(1);
    const r = await runFindings(['check', '--root', repo.root, '--staged'], { cwd: repo.root, env: { FINDINGS_SKIP: 'c-f-t' } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/"c-f-t" is a constraint id of an earlier release/);
    expect(r.stdout + r.stderr).not.toMatch(/skip-unknown/);
  });
});

describe('5. globs', () => {
  it('a glob without a slash matches the base name at any depth', () => {
    const f = compileAppliesTo({ path_globs: ['*.go'] });
    expect(f.ok && f.test('cli/x/a.go')).toBe(true);
    expect(f.ok && f.test('a.go')).toBe(true);
    expect(f.ok && f.test('cli/a.go.txt')).toBe(false);
  });

  it('a glob that can never match, or no glob on an active entry, is an error at validate', async () => {
    for (const globs of [['/**'], [''], []]) {
      const repo = makeRepo();
      repo.write(INDEX, UPSTREAM_EXAMPLE.replace('"path_globs": ["cli/**"]', `"path_globs": ${JSON.stringify(globs)}`));
      const v = await runFindings(['validate', '--root', repo.root, INDEX], { cwd: repo.root });
      expect(v.code, JSON.stringify(globs)).toBe(1);
      expect(v.stdout + v.stderr).toMatch(/index\/path-globs/);
    }
  });

  it('a glob that can never match is an error at compile', async () => {
    const repo = mechanicalRepo();
    repo.write('.agents/findings/f-m.md', finding('f-m').replace('path_globs: ["**/*.js"]', 'path_globs: ["/**"]'));
    const r = await compileJson(repo);
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.ruleId)).toContain('compiler/applies-to');
    expect(r.code).toBe(1);
  });
});
