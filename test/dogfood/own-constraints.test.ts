/**
 * The repository's own `.agents/` (docs/dogfood.md): its active constraint blocks a commit through
 * the real pre-commit hook, its shadow only warns, and neither reaches test fixtures or examples
 * that hold violations on purpose. The constraints are looked up by finding id, so the test does
 * not depend on how constraint ids are spelled.
 */
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, spawnFindings } from '../helpers/repo.js';
import { commit, hookedRepo } from '../hooks/setup.js';
import type { ConstraintIndex } from '../../src/types.js';

const OWN_AGENTS = path.join(PACKAGE_ROOT, '.agents');
const WRITE_FILE_ATOMIC = 'f-2026-12-01-003';
const MARKDOWN_ON_HOOK_PATH = 'f-2026-12-01-002';

function ownIndex(): ConstraintIndex {
  return JSON.parse(readFileSync(path.join(OWN_AGENTS, 'constraints/index.json'), 'utf8')) as ConstraintIndex;
}

function ownConstraint(findingId: string) {
  const entry = ownIndex().constraints.find((c) => c.finding_id === findingId);
  if (!entry) throw new Error(`no constraint for ${findingId} in .agents/constraints/index.json`);
  return entry;
}

/** A hooked temp repository holding a copy of this repository's `.agents/`, committed. */
async function repoWithOwnAgents() {
  const repo = await hookedRepo({}, { commitLayout: false });
  cpSync(OWN_AGENTS, path.join(repo.root, '.agents'), { recursive: true, filter: (src) => !/\.lock$|\.tmp$/.test(src) });
  repo.commitAll('the repository own .agents');
  return repo;
}

describe("the repository's own .agents/", () => {
  it('has an active, blocking constraint and a shadow one, limited to source folders', () => {
    const active = ownConstraint(WRITE_FILE_ATOMIC);
    expect(active.status).toBe('active');
    expect(active.enforcement_mode).toBe('block');
    expect(active.evidence.shadow_samples ?? 0).toBeGreaterThan(0);
    expect(ownConstraint(MARKDOWN_ON_HOOK_PATH).status).toBe('shadow');
    for (const c of ownIndex().constraints) {
      for (const glob of c.applies_to.path_globs ?? []) expect(glob).toMatch(/^(hooks|src|compiler)\/\*\*\//);
    }
  });

  it('blocks a commit that imports write-file-atomic under hooks/ through the real pre-commit hook', async () => {
    const repo = await repoWithOwnAgents();
    repo.write('hooks/save.ts', "import writeFileAtomic from 'write-file-atomic';\nexport const save = writeFileAtomic;\n");
    repo.git('add', 'hooks/save.ts');
    const r = commit(repo, []);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('hooks/save.ts:1');
    expect(r.stdout).toContain(ownConstraint(WRITE_FILE_ATOMIC).id);
    expect(repo.tryGit(['rev-parse', '--verify', '-q', 'HEAD~1']).code).not.toBe(0);
  });

  it('warns without blocking on a static unified import under hooks/ (shadow)', async () => {
    const repo = await repoWithOwnAgents();
    repo.write('hooks/md.ts', "import { unified } from 'unified';\nexport const md = unified();\n");
    repo.git('add', 'hooks/md.ts');
    const r = commit(repo, []);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('hooks/md.ts:1');
    expect(r.stdout).toContain(ownConstraint(MARKDOWN_ON_HOOK_PATH).id);
  });

  it('leaves test fixtures and examples that hold the import on purpose alone', async () => {
    const repo = await repoWithOwnAgents();
    const text = "import writeFileAtomic from 'write-file-atomic';\nimport { unified } from 'unified';\n";
    repo.write('test/fixtures/old-writer.ts', text);
    repo.write('examples/demo/src/old-writer.ts', text);
    repo.git('add', '-A');
    const r = commit(repo, []);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('old-writer.ts');
  });

  it('finds nothing in the repository itself (check --all exits 0 with no error)', async () => {
    const r = await spawnFindings(['check', '--all', '--root', PACKAGE_ROOT, '--json'], { cwd: PACKAGE_ROOT });
    expect(r.code).toBe(0);
    const diagnostics = JSON.parse(r.stdout) as { severity: string; file: string }[];
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
