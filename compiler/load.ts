/**
 * The input edge: everything compile() needs, read through a RepoFiles so the same compile runs
 * on the working tree, the staged content (pre-commit) or a pushed commit (pre-push).
 */
import { Layout } from '../src/layout.js';
import { loadDetectorKinds } from '../src/match/detector.js';
import { readRegistry } from '../src/registry/reader.js';
import type { RepoFiles } from '../src/repo-files.js';
import { parseArtifact, type CompileInputs, type ParseCache } from './compile.js';
import { checkArtifact } from './model.js';
import { memoryParseCache } from './parse-cache.js';
import { fixtureRefs } from './qualify.js';
import { readFixtures, readRawInputs, type RawInputs } from './raw-inputs.js';

export { isOwnedRulePath } from './raw-inputs.js';

/** Loads the registry, artifacts, fixtures, the previous index and the owned outputs present now. */
export async function loadCompileInputs(
  files: RepoFiles,
  parseCache: ParseCache = memoryParseCache(),
  read?: RawInputs,
): Promise<CompileInputs> {
  const { registryBytes, artifactPaths, rulePaths, contents } = read ?? (await readRawInputs(files));
  // readRegistry is fail-open (a read error becomes a warning); the bytes were read above, where
  // an unreadable registry is an error (exit 2).
  const registryFiles: RepoFiles = { ...files, read: async (f) => (f === Layout.registry ? registryBytes : files.read(f)) };
  const registry = await readRegistry(registryFiles);
  const artifacts = new Map<string, Buffer>();
  const refs = new Set<string>();
  const kinds = new Set<string>();
  for (const p of artifactPaths) {
    const bytes = contents.get(p);
    if (!bytes) continue;
    // A symlinked artifact is not a finding: its text would be the link, not content.
    if (files.mode && (await files.mode(p)) === '120000') continue;
    artifacts.set(p, bytes);
    const check = checkArtifact(p, parseArtifact(bytes, p, parseCache));
    if (check.ok && check.finding.data.detectability === 'mechanical') {
      const kind = check.finding.data.compiler?.detector?.kind;
      if (kind !== undefined) kinds.add(kind);
      const r = fixtureRefs(check.finding);
      for (const ref of [...r.positives, ...r.negatives]) refs.add(ref);
    }
  }
  const fixtures = await readFixtures(files, [...refs]);
  // compile() is synchronous: the detector kinds replay needs are loaded here (src/match/kind.ts).
  await loadDetectorKinds(kinds);
  const existing = new Map<string, Buffer>();
  for (const p of rulePaths) {
    const b = contents.get(p);
    if (b) existing.set(p, b);
  }
  const index = contents.get(Layout.constraintIndex);
  const extended = contents.get(Layout.extendedIndex);
  return {
    registry: { entries: registry.entries, warnings: registry.warnings },
    artifacts,
    fixtures,
    previousIndex: index ? index.toString('utf8') : null,
    previousExtended: extended ? extended.toString('utf8') : null,
    existing,
    parseCache,
  };
}
