/**
 * The input edge: everything compile() needs, read through a RepoFiles so the same compile runs
 * on the working tree, the staged content (pre-commit) or a pushed commit (pre-push).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { Layout } from '../src/layout.js';
import { resolveInsideRoot, toPosix } from '../src/paths.js';
import { readRegistry } from '../src/registry/reader.js';
import { readMany, type RepoFiles } from '../src/repo-files.js';
import type { CompileInputs, ParseCache } from './compile.js';
import { readFrontMatterRemark } from './markdown.js';
import { checkArtifact, isArtifactPath } from './model.js';
import { fixtureRefs, type FixtureSource } from './qualify.js';

/** An in-memory parse memo, shared between the loader (which needs fixture refs) and compile. */
export function memoryParseCache(): ParseCache & { readonly size: number } {
  const m = new Map<string, ReturnType<ParseCache['get']>>();
  return {
    get: (text) => m.get(text),
    set: (text, r) => void m.set(text, r),
    get size() {
      return m.size;
    },
  };
}

/** Owned Markdown outputs: `.md` files directly in the planning-rules and pre-mortem-checks folders. */
export function isOwnedRulePath(file: string): boolean {
  for (const dir of [Layout.planningRulesDir, Layout.preMortemChecksDir]) {
    if (file.startsWith(`${dir}/`) && file.endsWith('.md') && !file.slice(dir.length + 1).includes('/')) return true;
  }
  return false;
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
    const resolved = resolveInsideRoot(files.root, ref);
    if ('problem' in resolved) return { kind: 'refused', problem: resolved.problem };
    try {
      // Read what the path really names (a symlink inside the root is followed, once, here).
      target = toPosix(path.relative(realpathSync(files.root), realpathSync(resolved.abs)));
    } catch {
      return { kind: 'missing' };
    }
  }
  const data = await files.read(target);
  return data === null ? { kind: 'missing' } : { kind: 'text', text: data.toString('utf8') };
}

/** Loads the registry, artifacts, fixtures, the previous index and the owned outputs present now. */
export async function loadCompileInputs(files: RepoFiles, parseCache: ParseCache = memoryParseCache()): Promise<CompileInputs> {
  const [registry, findingFiles, plans, checks] = await Promise.all([
    readRegistry(files),
    files.list(Layout.findingsDir),
    files.list(Layout.planningRulesDir),
    files.list(Layout.preMortemChecksDir),
  ]);
  const artifactPaths = findingFiles.filter(isArtifactPath);
  const rulePaths = [...plans, ...checks].filter(isOwnedRulePath);
  const contents = await readMany(files, [...artifactPaths, ...rulePaths, Layout.constraintIndex]);
  const artifacts = new Map<string, Buffer>();
  const refs = new Set<string>();
  for (const p of artifactPaths) {
    const bytes = contents.get(p);
    if (!bytes) continue;
    // A symlinked artifact is not a finding: its text would be the link, not content.
    if (files.mode && (await files.mode(p)) === '120000') continue;
    artifacts.set(p, bytes);
    const key = bytes.toString('latin1');
    let parsed = parseCache.get(key);
    if (!parsed) {
      parsed = readFrontMatterRemark(bytes, p);
      parseCache.set(key, parsed);
    }
    const check = checkArtifact(p, parsed);
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
  return { registry: { entries: registry.entries, warnings: registry.warnings }, artifacts, fixtures, previousIndex: index ? index.toString('utf8') : null, existing, parseCache };
}
