/**
 * What a compile reads before it parses anything: the registry's bytes and every artifact, rule
 * file and the index, by path; and one fixture read as the loader reads it. Kept free of the
 * parsers, the schema validators and the compiler itself, so a no-op compile answered by the
 * result memo (compiler/result-memo.ts) loads none of them.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { Layout } from '../src/layout.js';
import { relativePathProblem, toPosix } from '../src/paths.js';
import { readMany, type RepoFiles } from '../src/repo-files.js';
import { isArtifactPath } from './model.js';
import type { FixtureSource } from './qualify.js';
import { isUpstreamCheckPath, UPSTREAM_PRE_MORTEM_CHECKS_DIR } from './rules.js';

export interface RawInputs {
  /** `.agents/findings/registry.jsonl`, or null when absent. */
  readonly registryBytes: Buffer | null;
  /** `.agents/findings/<id>.md` paths, as listed. */
  readonly artifactPaths: readonly string[];
  /** Owned rule files, then upstream's pre-mortem checks, as listed. */
  readonly rulePaths: readonly string[];
  /** Artifacts, rule files and the index → bytes (null: absent). */
  readonly contents: ReadonlyMap<string, Buffer | null>;
}

/** Owned Markdown outputs: `.md` files directly in the planning-rules and pre-mortem-checks folders. */
export function isOwnedRulePath(file: string): boolean {
  for (const dir of [Layout.planningRulesDir, Layout.preMortemChecksDir]) {
    if (file.startsWith(`${dir}/`) && file.endsWith('.md') && !file.slice(dir.length + 1).includes('/')) return true;
  }
  return false;
}

/** The artifacts and rule files a compile reads, as listed (before any read). */
export interface Listed {
  readonly artifactPaths: readonly string[];
  readonly rulePaths: readonly string[];
}

/** Lists the findings, planning-rules and both pre-mortem-checks folders. */
export async function listRawInputs(files: RepoFiles): Promise<Listed> {
  const [findingFiles, plans, checks, upstreamChecks] = await Promise.all([
    files.list(Layout.findingsDir),
    files.list(Layout.planningRulesDir),
    files.list(Layout.preMortemChecksDir),
    // The agentops compiler's folder name for the same checks (docs/compiler.md).
    files.list(UPSTREAM_PRE_MORTEM_CHECKS_DIR),
  ]);
  const artifactPaths = findingFiles.filter(isArtifactPath);
  const rulePaths = [...[...plans, ...checks].filter(isOwnedRulePath), ...upstreamChecks.filter(isUpstreamCheckPath)];
  return { artifactPaths, rulePaths };
}

/** Every path a compile reads besides the fixtures, in one fixed order: registry, artifacts, rule files, the constraint files. */
export const readPaths = (listed: Listed): string[] => [
  Layout.registry,
  ...listed.artifactPaths,
  ...listed.rulePaths,
  Layout.constraintIndex,
  Layout.extendedIndex,
];

/**
 * Reads every file a compile compares or parses, fixtures aside; the registry first, then the
 * listing (unless both are given, read and listed in that order by the caller).
 */
export async function readRawInputs(files: RepoFiles, given?: { registryBytes: Buffer | null; listed: Listed }): Promise<RawInputs> {
  // An unreadable registry is bad input for compile (exit 2): the read error goes through.
  const registryBytes = given ? given.registryBytes : await files.read(Layout.registry);
  const { artifactPaths, rulePaths } = given?.listed ?? (await listRawInputs(files));
  const wanted = [...artifactPaths, ...rulePaths, Layout.constraintIndex, Layout.extendedIndex];
  const readSync = (files as { readSync?: (file: string) => Buffer | null }).readSync;
  const contents = readSync ? new Map(wanted.map((f) => [f, readSync(f)] as const)) : await readMany(files, wanted);
  return { registryBytes, artifactPaths, rulePaths, contents };
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

/**
 * Where the folders of fixture refs really are, for one run over one working tree: a folder's
 * real path is its parent's real path plus its name unless it is a symlink (one lstat per folder,
 * every folder once), and only a symlink is resolved with realpath. The same answer as realpath of
 * each fixture path, without its lookup of every component of all 2,000 paths of the benchmark.
 */
export interface FolderResolver {
  /** The real absolute path of repository folder `dir` (posix, '' = the root), or null when it is not a folder. */
  realFolder(dir: string): string | null;
}

export function folderResolver(root: string): FolderResolver {
  const known = new Map<string, string | null>();
  const realFolder = (dir: string): string | null => {
    if (dir === '' || dir === '.') return realRoot(root);
    const had = known.get(dir);
    if (had !== undefined) return had;
    let real: string | null = null;
    const parent = realFolder(path.posix.dirname(dir));
    if (parent !== null) {
      const abs = path.join(root, dir);
      try {
        const st = lstatSync(abs);
        if (st.isSymbolicLink()) real = realpathSync.native(abs);
        else if (st.isDirectory()) real = path.join(parent, path.posix.basename(dir));
      } catch {
        real = null;
      }
    }
    known.set(dir, real);
    return real;
  };
  return { realFolder };
}

/** The real path of `ref` under `root` (as realpath gives it), or null when nothing is there. */
function realPathOf(root: string, ref: string, folders: FolderResolver | undefined): string | null {
  const abs = path.join(root, ref);
  try {
    if (folders === undefined) return realpathSync.native(abs);
    const folder = folders.realFolder(path.posix.dirname(ref));
    if (folder === null) return null;
    // The file itself: only a symlink needs resolving (then exactly as before, with realpath).
    const st = lstatSync(abs);
    return st.isSymbolicLink() ? realpathSync.native(abs) : path.join(folder, path.posix.basename(ref));
  } catch {
    return null;
  }
}

/** Reads one fixture, refusing symlinks that leave the root (worktree) and symlink blobs (git). */
export async function readFixture(files: RepoFiles, ref: string, folders?: FolderResolver): Promise<FixtureSource> {
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
    const real = realPathOf(files.root, ref, folders);
    if (real === null) return { kind: 'missing' };
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

/** Every fixture in `refs` (sorted), as the loader reads it. */
export async function readFixtures(files: RepoFiles, refs: readonly string[]): Promise<Map<string, FixtureSource>> {
  const wanted = [...refs].sort();
  if (files.prefetch) await files.prefetch(wanted);
  const fixtures = new Map<string, FixtureSource>();
  const folders = files.root !== undefined && !files.mode ? folderResolver(files.root) : undefined;
  for (const ref of wanted) fixtures.set(ref, await readFixture(files, ref, folders));
  return fixtures;
}
