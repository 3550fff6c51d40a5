/**
 * The input edge: everything compile() needs, read through a RepoFiles so the same compile runs
 * on the working tree, the staged content (pre-commit) or a pushed commit (pre-push).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { Layout } from '../src/layout.js';
import { relativePathProblem, toPosix } from '../src/paths.js';
import { readRegistry } from '../src/registry/reader.js';
import { readMany, type RepoFiles } from '../src/repo-files.js';
import { parseArtifact, type CompileInputs, type ParseCache } from './compile.js';
import { memoryParseCache } from './parse-cache.js';
import { checkArtifact, isArtifactPath } from './model.js';
import { fixtureRefs, type FixtureSource } from './qualify.js';
import { isUpstreamCheckPath, UPSTREAM_PRE_MORTEM_CHECKS_DIR } from './rules.js';

/** Owned Markdown outputs: `.md` files directly in the planning-rules and pre-mortem-checks folders. */
export function isOwnedRulePath(file: string): boolean {
  for (const dir of [Layout.planningRulesDir, Layout.preMortemChecksDir]) {
    if (file.startsWith(`${dir}/`) && file.endsWith('.md') && !file.slice(dir.length + 1).includes('/')) return true;
  }
  return false;
}

const realRoots = new Map<string, string>();
function realRoot(root: string): string {
  let r = realRoots.get(root);
  if (r === undefined) {
    r = realpathSync.native(root);
    realRoots.set(root, r);
  }
  return r;
}

/** Reads one fixture, refusing symlinks that leave the root (worktree) and symlink blobs (git). */
async function readFixture(files: RepoFiles, ref: string): Promise<FixtureSource> {
  if (files.mode) {
    const mode = await files.mode(ref);
    if (mode === null) return { kind: 'missing' };
    if (mode === '120000') return { kind: 'refused', problem: 'is a symlink in git; fixtures must be regular files' };
    const data = await files.read(ref);
    return data === null ? { kind: 'missing' } : { kind: 'text', text: data.toString('utf8') };
  }
  let target = ref;
  if (files.root !== undefined) {
    // Containment through symlinks, as src/paths.ts resolveInsideRoot, with the native realpath
    // (one syscall; the JS one lstats every segment of 2,000 fixtures in the benchmark).
    const problem = relativePathProblem(ref);
    if (problem) return { kind: 'refused', problem };
    let real: string;
    try {
      real = realpathSync.native(path.join(files.root, ref));
    } catch {
      return { kind: 'missing' };
    }
    const back = path.relative(realRoot(files.root), real);
    if (back.startsWith('..') || path.isAbsolute(back)) return { kind: 'refused', problem: 'leaves the repository through a symlink' };
    // Read what the path really names (a symlink inside the root is followed here).
    target = toPosix(back);
  }
  let data: Buffer | null;
  try {
    data = await files.read(target);
  } catch (error) {
    // A fixture that names a folder (or cannot be opened) is that finding's problem, not the run's.
    return { kind: 'refused', problem: `cannot be read (${error instanceof Error ? error.message : String(error)})` };
  }
  return data === null ? { kind: 'missing' } : { kind: 'text', text: data.toString('utf8') };
}

/** Loads the registry, artifacts, fixtures, the previous index and the owned outputs present now. */
export async function loadCompileInputs(files: RepoFiles, parseCache: ParseCache = memoryParseCache()): Promise<CompileInputs> {
  // readRegistry is fail-open (a read error becomes a warning); for compile an unreadable
  // registry is bad input (exit 2), so read it here and let the error through.
  const registryBytes = await files.read(Layout.registry);
  const registryFiles: RepoFiles = { ...files, read: async (f) => (f === Layout.registry ? registryBytes : files.read(f)) };
  const [registry, findingFiles, plans, checks, upstreamChecks] = await Promise.all([
    readRegistry(registryFiles),
    files.list(Layout.findingsDir),
    files.list(Layout.planningRulesDir),
    files.list(Layout.preMortemChecksDir),
    // The agentops compiler's folder name for the same checks (docs/compiler.md).
    files.list(UPSTREAM_PRE_MORTEM_CHECKS_DIR),
  ]);
  const artifactPaths = findingFiles.filter(isArtifactPath);
  const rulePaths = [...[...plans, ...checks].filter(isOwnedRulePath), ...upstreamChecks.filter(isUpstreamCheckPath)];
  const contents = await readMany(files, [...artifactPaths, ...rulePaths, Layout.constraintIndex]);
  const artifacts = new Map<string, Buffer>();
  const refs = new Set<string>();
  for (const p of artifactPaths) {
    const bytes = contents.get(p);
    if (!bytes) continue;
    // A symlinked artifact is not a finding: its text would be the link, not content.
    if (files.mode && (await files.mode(p)) === '120000') continue;
    artifacts.set(p, bytes);
    const check = checkArtifact(p, parseArtifact(bytes, p, parseCache));
    if (check.ok && check.finding.data.detectability === 'mechanical') {
      const r = fixtureRefs(check.finding);
      for (const ref of [...r.positives, ...r.negatives]) refs.add(ref);
    }
  }
  const wanted = [...refs].sort();
  if (files.prefetch) await files.prefetch(wanted);
  const fixtures = new Map<string, FixtureSource>();
  for (const ref of wanted) fixtures.set(ref, await readFixture(files, ref));
  const existing = new Map<string, Buffer>();
  for (const p of rulePaths) {
    const b = contents.get(p);
    if (b) existing.set(p, b);
  }
  const index = contents.get(Layout.constraintIndex);
  return {
    registry: { entries: registry.entries, warnings: registry.warnings },
    artifacts,
    fixtures,
    previousIndex: index ? index.toString('utf8') : null,
    existing,
    parseCache,
  };
}
