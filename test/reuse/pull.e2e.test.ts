/** `findings pull` end to end with two real repositories on disk (docs/reuse.md). */
import { mkdirSync, readFileSync, existsSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeRepo, runFindings, tempDir, type TestRepo } from '../helpers/repo.js';
import type { ConstraintIndex, RegistryEntry } from '../../src/types.js';

const REGISTRY = '.agents/findings/registry.jsonl';
const SOURCES = '.agents/findings/sources.json';
const env = { FINDINGS_NOW: '2026-04-01T00:00:00Z' };

function lines(repo: TestRepo): RegistryEntry[] {
  return repo
    .read(REGISTRY)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RegistryEntry);
}
const byId = (repo: TestRepo, id: string): RegistryEntry | undefined => lines(repo).find((e) => e.id === id);

const advisory = (id: string, pattern: string): RegistryEntry => ({
  id,
  version: 1,
  tier: 'local',
  source: { repo: 'org/repo-a', session: '2026-03-03', file: '.agents/council/x.md', skill: 'post-mortem' },
  date: '2026-03-03',
  severity: 'minor',
  category: 'test-gap',
  pattern,
  detection_question: 'Is there a test for it?',
  checklist_item: 'Add the test.',
  applicable_languages: ['typescript'],
  applicable_when: ['test-gap'],
  status: 'active',
  superseded_by: null,
  dedup_key: `test-gap|${pattern
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, '')
    .trim()
    .split(/\s+/)
    .join('-')}|test-gap`,
  hit_count: 0,
  last_cited: null,
  ttl_days: 30,
  confidence: 'medium',
});

async function findings(repo: TestRepo, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runFindings(args, { cwd: repo.root, env });
}

/** Repository A: the fixture (one advisory, one mechanical with fixtures, one retired), plus a filed and compiled entry. */
async function repoA(): Promise<TestRepo> {
  const a = makeRepo();
  a.copy('reuse/repo-a');
  a.write('entry.json', JSON.stringify(advisory('f-a-004', 'Parsers lack a test for empty input')));
  expect((await findings(a, 'add', '--file', 'entry.json')).code).toBe(0);
  const compiled = await findings(a, 'compile');
  expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
  a.commitAll('A: findings');
  return a;
}

describe('findings pull (two repositories)', () => {
  let a: TestRepo;
  let b: TestRepo;
  let rel: string;
  beforeEach(async () => {
    a = await repoA();
    b = makeRepo({ 'README.md': 'B\n' });
    b.commitAll('B: init');
    rel = path.relative(b.root, a.root);
  });

  it('imports the active entries of A (tier pulled, source kept), copies the mechanical artifact and its fixtures, and records A in sources.json', async () => {
    const r = await findings(b, 'pull', rel);
    expect(r.code, r.stderr).toBe(0);
    const ids = lines(b).map((e) => e.id);
    expect(ids).toEqual(['f-a-001', 'f-a-002', 'f-a-004']); // the retired f-a-003 is not imported
    for (const e of lines(b)) expect(e.tier).toBe('pulled');
    expect(byId(b, 'f-a-001')!.source).toEqual({
      repo: 'org/repo-a',
      session: '2026-03-01',
      file: '.agents/council/2026-03-01-review.md',
      skill: 'post-mortem',
    });
    expect(b.read('.agents/findings/f-a-002.md')).toContain('\ntier: pulled\n');
    expect(b.read('.agents/constraints/fixtures/f-a-002/positive.ts')).toBe(a.read('.agents/constraints/fixtures/f-a-002/positive.ts'));
    // Advisory artifacts are not copied: B's compiler promotes them from the registry line.
    expect(b.exists('.agents/findings/f-a-001.md')).toBe(false);
    const sources = JSON.parse(b.read(SOURCES)) as {
      sources: { url: string; ref: string; commit: string; tier: string; entries: { id: string }[] }[];
    };
    expect(sources.sources).toHaveLength(1);
    expect(sources.sources[0]).toMatchObject({ url: rel, ref: 'HEAD', commit: a.git('rev-parse', 'HEAD').trim(), tier: 'pulled' });
    expect(sources.sources[0]!.entries.map((e) => e.id)).toEqual(['f-a-001', 'f-a-002', 'f-a-004']);
    expect(r.stdout).toContain('3 added');
  });

  it('pulling the same commit twice changes no byte', async () => {
    expect((await findings(b, 'pull', rel)).code).toBe(0);
    const reg = b.read(REGISTRY);
    const src = b.read(SOURCES);
    const art = b.read('.agents/findings/f-a-002.md');
    const again = await findings(b, 'pull', a.root); // the same source, named by its absolute path
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing changed');
    expect(b.read(REGISTRY)).toBe(reg);
    expect(b.read(SOURCES)).toBe(src);
    expect(b.read('.agents/findings/f-a-002.md')).toBe(art);
  });

  it('a mechanical finding compiles to a shadow constraint in B, even when it is active in A', async () => {
    // Make A's constraint active (as if measured and activated there).
    const index = JSON.parse(a.read('.agents/constraints/index.json')) as ConstraintIndex;
    const c = index.constraints.find((x) => x.id === 'f-a-002');
    expect(c).toBeDefined();
    c!.status = 'active';
    c!.enforcement_mode = 'block';
    a.write('.agents/constraints/index.json', `${JSON.stringify(index, null, 2)}\n`);
    a.commitAll('A: activate');
    expect((await findings(b, 'pull', rel)).code).toBe(0);
    const compiled = await findings(b, 'compile');
    expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
    const bIndex = JSON.parse(b.read('.agents/constraints/index.json')) as ConstraintIndex;
    const pulled = bIndex.constraints.find((x) => x.id === 'f-a-002');
    expect(pulled).toMatchObject({ status: 'shadow', enforcement_mode: 'warn' });
  });

  it('a local edit in B survives a re-pull; untouched pulled entries follow A', async () => {
    expect((await findings(b, 'pull', rel)).code).toBe(0);
    // B edits f-a-001 by hand (tier stays pulled) and takes f-a-004 over with a local entry.
    b.write(REGISTRY, b.read(REGISTRY).replace('Read registry.jsonl and cite the applied finding ids.', 'B: cite ids in the plan header.'));
    b.write(
      'local.json',
      JSON.stringify({
        ...advisory('f-b-100', 'Parsers lack a test for empty input'),
        source: { repo: 'org/repo-b', session: 's', file: 'f', skill: 'review' },
        checklist_item: 'B wording',
      }),
    );
    expect((await findings(b, 'add', '--file', 'local.json')).code).toBe(0);
    expect(byId(b, 'f-a-004')!.tier).toBe('local');
    // B edits the copied artifact too.
    b.write('.agents/findings/f-a-002.md', b.read('.agents/findings/f-a-002.md').replace('## Summary', '## Summary (B notes)'));
    // A rewords all three.
    a.write(REGISTRY, a.read(REGISTRY).replaceAll('"checklist_item":"', '"checklist_item":"A2: '));
    a.write(
      '.agents/findings/f-a-002.md',
      a.read('.agents/findings/f-a-002.md').replace('Remove console.log or use the logger.', 'Now remove console.log or use the logger.'),
    );
    a.commitAll('A: reword');
    const r = await findings(b, 'pull', rel, '--json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { updated: string[]; kept_local: string[]; files: { path: string; action: string }[] };
    expect(report.updated).toEqual(['f-a-002']);
    expect(report.kept_local).toEqual(['f-a-001', 'f-a-004']);
    expect(byId(b, 'f-a-001')!.checklist_item).toBe('B: cite ids in the plan header.');
    expect(byId(b, 'f-a-004')!.checklist_item).toBe('B wording');
    expect(byId(b, 'f-a-002')!.checklist_item).toBe('A2: Remove console.log or use the logger.');
    expect(b.read('.agents/findings/f-a-002.md')).toContain('## Summary (B notes)');
    expect(report.files.find((f) => f.path === '.agents/findings/f-a-002.md')?.action).toBe('kept');
    // A later pull still recognises the edit (it is recorded, not forgotten).
    const again = JSON.parse((await findings(b, 'pull', rel, '--json')).stdout) as { kept_local: string[] };
    expect(again.kept_local).toEqual(['f-a-001', 'f-a-004']);
  });

  it(
    'retiring or superseding in A retires or supersedes in B at the next pull, unless ' +
      'a local entry took it over; the compiler then retires the constraint',
    async () => {
      expect((await findings(b, 'pull', rel)).code).toBe(0);
      expect((await findings(b, 'compile')).code).toBe(0);
      b.write('local.json', JSON.stringify({ ...advisory('f-b-100', 'Parsers lack a test for empty input'), checklist_item: 'B wording' }));
      expect((await findings(b, 'add', '--file', 'local.json')).code).toBe(0); // takes f-a-004 over
      expect((await findings(a, 'retire', 'f-a-002')).code).toBe(0);
      expect((await findings(a, 'retire', 'f-a-004')).code).toBe(0);
      expect((await findings(a, 'retire', 'f-a-001', '--superseded-by', 'f-a-002')).code).toBe(0);
      a.commitAll('A: retire');
      const r = await findings(b, 'pull', rel, '--json');
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { retired: string[] }).retired).toEqual(['f-a-001', 'f-a-002']);
      expect(byId(b, 'f-a-002')).toMatchObject({ status: 'retired', superseded_by: null });
      // f-a-001's replacement is retired here too, but it exists: superseded keeps the link.
      expect(byId(b, 'f-a-001')).toMatchObject({ status: 'superseded', superseded_by: 'f-a-002' });
      expect(byId(b, 'f-a-004')).toMatchObject({ status: 'active', tier: 'local' });
      expect((await findings(b, 'validate')).code).toBe(0);
      expect((await findings(b, 'compile')).code).toBe(0);
      const bIndex = JSON.parse(b.read('.agents/constraints/index.json')) as ConstraintIndex;
      const c = bIndex.constraints.find((x) => x.id === 'f-a-002');
      expect(c === undefined || c.status === 'retired').toBe(true);
    },
  );

  it('a pulled mechanical finding that A retires, B compiles retired, and A revives with a new detector comes back in B whole', async () => {
    const ARTIFACT = '.agents/findings/f-a-002.md';
    expect((await findings(b, 'pull', rel)).code).toBe(0);
    expect((await findings(b, 'compile')).code).toBe(0);
    b.commitAll('B: pulled');
    // A retires it; B pulls (registry line retired) and compiles, which writes `status: retired` into B's copy.
    expect((await findings(a, 'retire', 'f-a-002')).code).toBe(0);
    expect((await findings(a, 'compile')).code).toBe(0);
    a.commitAll('A: retire f-a-002');
    expect((await findings(b, 'pull', rel)).code).toBe(0);
    expect(byId(b, 'f-a-002')!.status).toBe('retired');
    const compiled = await findings(b, 'compile');
    expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
    expect(b.read(ARTIFACT)).toMatch(/\nstatus: "?retired"?\r?\n/);
    b.commitAll('B: compile retired');
    // A revives it and changes its detector.
    a.write(
      REGISTRY,
      a
        .read(REGISTRY)
        .split('\n')
        .map((l) => (l.includes('"id":"f-a-002"') ? JSON.stringify({ ...(JSON.parse(l) as RegistryEntry), status: 'active' }) : l))
        .join('\n'),
    );
    a.write(
      ARTIFACT,
      a
        .read(ARTIFACT)
        .replace(/\nstatus: "?retired"?\n/, '\nstatus: active\n')
        .replace('pattern: "console\\\\.log\\\\("', 'pattern: "console\\\\.(log|debug)\\\\("'),
    );
    expect(a.read(ARTIFACT)).toContain('console\\\\.(log|debug)');
    expect(a.read(ARTIFACT)).toContain('\nstatus: active\n');
    a.commitAll('A: revive f-a-002 with a wider detector');
    const r = await findings(b, 'pull', rel, '--json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { files: { path: string; action: string }[]; diagnostics: { ruleId: string }[] };
    expect(byId(b, 'f-a-002')!.status).toBe('active');
    expect(report.files.find((f) => f.path === ARTIFACT)?.action).toBe('updated');
    expect(report.diagnostics.map((d) => d.ruleId)).not.toContain('pull/kept-local-file');
    expect(b.read(ARTIFACT)).toContain('\nstatus: active\n');
    expect(b.read(ARTIFACT)).toContain('console\\\\.(log|debug)');
    expect(b.read(ARTIFACT)).toContain('\ntier: pulled\n');
    const again = await findings(b, 'compile');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const c = (JSON.parse(b.read('.agents/constraints/index.json')) as ConstraintIndex).constraints.find((x) => x.id === 'f-a-002');
    expect(c).toMatchObject({ status: 'shadow', detector: { pattern: 'console\\.(log|debug)\\(' } });
    // A real local edit of the copy is still a takeover that later pulls leave alone.
    b.write(ARTIFACT, b.read(ARTIFACT).replace('## Summary', '## Summary (B notes)'));
    a.write(ARTIFACT, a.read(ARTIFACT).replace('Remove console.log or use the logger.', 'Now remove console.log or use the logger.'));
    a.commitAll('A: reword');
    const kept = JSON.parse((await findings(b, 'pull', rel, '--json')).stdout) as { files: { path: string; action: string }[] };
    expect(kept.files.find((f) => f.path === ARTIFACT)?.action).toBe('kept');
    expect(b.read(ARTIFACT)).toContain('## Summary (B notes)');
  });

  it('an entry that disappears from A is retired in B; one that comes back is revived', async () => {
    expect((await findings(b, 'pull', rel)).code).toBe(0);
    const original = a.read(REGISTRY);
    a.write(
      REGISTRY,
      original
        .split('\n')
        .filter((l) => !l.includes('"f-a-004"'))
        .join('\n'),
    );
    a.commitAll('A: drop f-a-004');
    expect((await findings(b, 'pull', rel)).code).toBe(0);
    expect(byId(b, 'f-a-004')!.status).toBe('retired');
    a.write(REGISTRY, original);
    a.commitAll('A: restore f-a-004');
    expect((await findings(b, 'pull', rel)).code).toBe(0);
    expect(byId(b, 'f-a-004')!.status).toBe('active');
  });

  it('--check exits 0 while A is at the recorded commit and 1 once A moves; it writes nothing', async () => {
    expect((await findings(b, 'pull', rel)).code).toBe(0);
    const before = b.read(SOURCES);
    const ok = await findings(b, 'pull', '--check');
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('is current');
    expect((await findings(b, 'pull', rel, '--check')).code).toBe(0);
    a.write('note.txt', 'moved\n');
    const moved = a.commitAll('A: move');
    const r = await findings(b, 'pull', '--check');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`is at ${moved.slice(0, 12)}`);
    expect(r.stdout).toContain('.agents/findings/sources.json:5 ');
    expect(r.stdout).toContain('pull/source-moved');
    expect(b.read(SOURCES)).toBe(before);
    const json = JSON.parse((await findings(b, 'pull', '--check', '--json')).stdout) as { sources: { state: string; current: string }[] };
    expect(json.sources[0]).toMatchObject({ state: 'moved', current: moved });
    // A source never pulled is not current either.
    expect((await findings(b, 'pull', tempDir(), '--check')).code).toBe(1);
  });

  it('never runs anything from the source repository, not even its local git config', async () => {
    expect((await findings(b, 'pull', rel)).code).toBe(0);
    const marker = path.join(tempDir(), 'ran');
    // A hostile source: its own config would turn the local path into ssh and run a command.
    a.git('config', `url.ssh://attacker.invalid/x.insteadOf`, a.root);
    a.git('config', 'core.sshCommand', `touch ${marker}; false`);
    await findings(b, 'pull', '--check');
    await findings(b, 'pull', rel);
    expect(existsSync(marker)).toBe(false);
  });

  it('--ref pulls a branch and is recorded; --tier seed sets the tier', async () => {
    a.git('checkout', '-q', '-b', 'release');
    a.write(
      REGISTRY,
      a
        .read(REGISTRY)
        .split('\n')
        .filter((l) => !l.includes('"f-a-004"'))
        .join('\n'),
    );
    const release = a.commitAll('A: release');
    a.git('checkout', '-q', 'main');
    const r = await findings(b, 'pull', rel, '--ref', 'release', '--tier', 'seed');
    expect(r.code, r.stderr).toBe(0);
    expect(lines(b).map((e) => [e.id, e.tier])).toEqual([
      ['f-a-001', 'seed'],
      ['f-a-002', 'seed'],
    ]);
    expect(b.read('.agents/findings/f-a-002.md')).toContain('\ntier: seed\n');
    expect(JSON.parse(b.read(SOURCES)).sources[0]).toMatchObject({ ref: 'release', commit: release, tier: 'seed' });
    expect((await findings(b, 'pull', rel, '--check')).code).toBe(0);
  });
});

describe('findings pull: bad sources change nothing', () => {
  function snapshot(repo: TestRepo): string {
    return repo.tryGit(['status', '--porcelain', '--untracked-files=all']).stdout + (repo.exists(REGISTRY) ? repo.read(REGISTRY) : '');
  }
  let b: TestRepo;
  beforeEach(() => {
    b = makeRepo();
    b.write(REGISTRY, `${JSON.stringify(advisory('f-b-1', 'B keeps its own'))}\nnot json at all\n`);
    b.commitAll('B');
  });

  it('a path that is not a repository: exit 2, nothing changed', async () => {
    const plain = tempDir('not-a-repo-');
    mkdirSync(path.join(plain, '.agents/findings'), { recursive: true });
    const before = snapshot(b);
    const r = await findings(b, 'pull', plain);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('pull/not-a-repository');
    expect(r.stdout).toContain('is not a git repository');
    expect(snapshot(b)).toBe(before);
    expect(b.exists(SOURCES)).toBe(false);
  });

  it('a path that does not exist, or an unreachable URL: exit 2', async () => {
    const before = snapshot(b);
    expect((await findings(b, 'pull', path.join(tempDir(), 'missing'))).code).toBe(2);
    const url = await findings(b, 'pull', 'http://127.0.0.1:9/nothing.git');
    expect(url.code).toBe(2);
    expect(url.stdout).toContain('pull/unreachable');
    expect(snapshot(b)).toBe(before);
  });

  it('a repository without a registry, and a registry with a malformed line: exit 1, nothing changed', async () => {
    const empty = makeRepo({ 'x.txt': 'x\n' });
    empty.commitAll();
    const before = snapshot(b);
    const r = await findings(b, 'pull', empty.root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('pull/no-registry');
    const bad = makeRepo();
    bad.write(REGISTRY, `${JSON.stringify(advisory('f-x-1', 'A good line'))}\n{"id": "broken"\n`);
    bad.commitAll();
    const m = await findings(b, 'pull', bad.root);
    expect(m.code).toBe(1);
    expect(m.stdout).toMatch(/registry\.jsonl:2\s+error/);
    expect(snapshot(b)).toBe(before);
    expect(b.exists(SOURCES)).toBe(false);
  });

  it('a missing ref: exit 2; hostile sources and refs are usage errors', async () => {
    const a = makeRepo();
    a.write(REGISTRY, `${JSON.stringify(advisory('f-x-1', 'A good line'))}\n`);
    a.commitAll();
    const before = snapshot(b);
    expect((await findings(b, 'pull', a.root, '--ref', 'no-such-branch')).code).toBe(2);
    for (const args of [
      ['--', '-uhack'],
      ['ext::sh -c touch% /tmp/pwned'],
      ['fd::3'],
      ['ftp://example.com/r.git'],
      ['https://user:secret@example.com/r.git'],
      [a.root, '--ref', '--upload-pack=x'],
      [a.root, '--ref', 'a b'],
    ]) {
      const r = await findings(b, 'pull', ...args);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect((await findings(b, 'pull')).code).toBe(2);
    expect(snapshot(b)).toBe(before);
  });

  it('keeps unparseable lines of B byte for byte while importing', async () => {
    const a = makeRepo();
    a.write(REGISTRY, `${JSON.stringify(advisory('f-x-1', 'A good line'))}\n`);
    a.commitAll();
    expect((await findings(b, 'pull', a.root)).code).toBe(0);
    const text = b.read(REGISTRY).split('\n');
    expect(text[1]).toBe('not json at all');
    expect(text[2]).toContain('"f-x-1"');
  });

  it('never writes through a symlinked fixtures folder', async () => {
    const a = makeRepo();
    a.copy('reuse/repo-a');
    a.commitAll();
    const outside = tempDir('outside-');
    mkdirSync(path.join(b.root, '.agents/constraints/fixtures'), { recursive: true });
    symlinkSync(outside, path.join(b.root, '.agents/constraints/fixtures/f-a-002'));
    const r = await findings(b, 'pull', a.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pull/unsafe-path');
    expect(existsSync(path.join(outside, 'positive.ts'))).toBe(false);
    expect(readFileSync(path.join(b.root, '.agents/findings/f-a-002.md'), 'utf8')).toContain('tier: pulled');
  });
});
