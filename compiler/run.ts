/**
 * `findings compile [--check]` without the CLI: load, compile, compare, and (unless checking)
 * write only files whose bytes change and remove orphans, all under compile.lock.
 */
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, sortDiagnostics, type Diagnostic } from '../src/diagnostics.js';
import type { WriteOps } from '../src/fs/atomic.js';
import { withLock } from '../src/fs/lock.js';
import { gitDir } from '../src/git/core.js';
import { Layout } from '../src/layout.js';
import { diffOutputs, isAbsentEmptyIndex, type Drift } from './diff.js';
import { outputFolderProblem, sweepTempFiles } from './emit.js';
import { fastWorktreeFiles } from './fast-files.js';
import { writeChanges, writerThreadAhead } from './write-changes.js';
import { listRawInputs, readFixtures, readPaths, readRawInputs, type RawInputs } from './raw-inputs.js';
import { fixturesKey, inputsKey, openResultMemo, pathsKey, SETTLED_MS, sameStamps, stampsOf, type StoredResult } from './result-memo.js';

export type ChangeAction = 'created' | 'updated' | 'removed' | 'missing' | 'stale' | 'orphaned';

export interface CompileRun {
  diagnostics: Diagnostic[];
  changes: { path: string; action: ChangeAction }[];
  /** Constraint ids kept as they were: entries no artifact here wrote (upstream's, hand-written), never dropped. */
  kept: string[];
  /** With `check`: the constraint index compiling would write (null when none), for reports of what would change. */
  compiledIndex?: string | null;
  /** With `check`: the extended index compiling would write (null when none). */
  compiledExtended?: string | null;
}

const WRITE_ACTION = { missing: 'created', stale: 'updated', orphaned: 'removed' } as const;

/**
 * Compiles the working tree at `root`. `check: true` writes nothing and reports drift instead.
 * `writeOps` replaces the writers' system calls (tests count and break them, src/fs/atomic.ts).
 */
export async function runCompile(
  root: string,
  options: { check: boolean; settledMs?: number; writeOps?: WriteOps; parallelFrom?: number },
): Promise<CompileRun> {
  // How long before this run a file must have last changed for its stamp to count (tests shorten it).
  const settledMs = options.settledMs ?? SETTLED_MS;
  const once = async (): Promise<CompileRun> => {
    // Under compile.lock: whatever a killed writer left is swept before anything is written.
    const startedMs = Date.now();
    if (!options.check) sweepTempFiles(root);
    const files = fastWorktreeFiles(root);
    const dir = dotGitDir(root) ?? (await gitDir(root).catch(() => null));
    const memo = openResultMemo(dir);
    // The registry first (an unreadable one is exit 2, before any listing), then the folders.
    const registryBytes = files.readSync(Layout.registry);
    const listed = await listRawInputs(files);
    const paths = readPaths(listed);
    const stored = memo.stored;
    let raw: RawInputs | null = null;
    let key: string | null = null;
    let hit: StoredResult | null = null;
    if (stored !== null && sameStamps(stored, root, paths, startedMs - settledMs)) hit = stored;
    else {
      raw = await readRawInputs(files, { registryBytes, listed });
      // Hashing every input only pays when there is a stored result to compare with (not on a
      // first compile); otherwise the key is made when a result is saved.
      if (stored !== null) {
        key = inputsKey(raw);
        hit = memo.lookup(key);
      }
    }
    if (hit !== null) {
      const fixtures = await readFixtures(files, hit.fixtureRefs);
      if (fixturesKey(fixtures) === hit.fixtures) {
        // The same bytes as a compile that found nothing to write: the same answer (compiler/result-memo.ts).
        const diagnostics = [...hit.diagnostics];
        if (!options.check) {
          // A hit by content whose stamps were missing or have moved: keep the stamps for next time.
          if (raw !== null) {
            const stamps = stampsOf(root, paths, startedMs - settledMs);
            if (stamps !== null) memo.save({ ...hit, stamps: { paths: pathsKey(paths), of: stamps } });
          }
          return { diagnostics, changes: [], kept: [...hit.kept] };
        }
        const read = (file: string): Buffer | null | undefined => (raw !== null ? raw.contents.get(file) : files.readSync(file));
        const index = read(Layout.constraintIndex);
        const extended = read(Layout.extendedIndex);
        return {
          diagnostics,
          changes: [],
          kept: [...hit.kept],
          compiledIndex: hit.index && index ? index.toString('utf8') : null,
          compiledExtended: hit.index && extended ? extended.toString('utf8') : null,
        };
      }
    }
    raw ??= await readRawInputs(files, { registryBytes, listed });
    const parallel = {
      ...(options.writeOps ? { ops: options.writeOps } : {}),
      ...(options.parallelFrom !== undefined ? { parallelFrom: options.parallelFrom } : {}),
    };
    // A cold compile of many findings has new rule folders for the writer thread: it starts now,
    // its start-up beside the compile's (compiler/write-changes.ts).
    const thread = options.check ? null : writerThreadAhead(root, lineCount(registryBytes), parallel);
    try {
      // The parsers, validators, matching engine and the compiler are loaded only here.
      const [{ loadCompileInputs }, { compile }, { openParseCache }] = await Promise.all([
        import('./load.js'),
        import('./compile.js'),
        import('./parse-cache.js'),
      ]);
      const cache = openParseCache(dir);
      const inputs = await loadCompileInputs(files, cache ?? undefined, raw);
      const result = compile(inputs);
      const found = diffOutputs(inputs, result);
      const contained = containedDrift(root, found);
      const drift = contained.drift;
      const diagnostics =
        contained.diagnostics.length === 0 ? result.diagnostics : sortDiagnostics([...result.diagnostics, ...contained.diagnostics]);
      if (!options.check && found.length === 0 && contained.diagnostics.length === 0) {
        memo.save({
          inputs: key ?? inputsKey(raw),
          fixtureRefs: [...inputs.fixtures.keys()].sort(),
          fixtures: fixturesKey(inputs.fixtures),
          diagnostics,
          index: result.outputs.has(Layout.constraintIndex),
          kept: result.kept,
          stamps: stampOf(root, paths, startedMs - settledMs),
        });
      }
      if (options.check)
        return {
          diagnostics,
          changes: drift.filter((d) => !isAbsentEmptyIndex(d, result)).map((d) => ({ path: d.path, action: d.kind })),
          kept: result.kept,
          compiledIndex: result.outputs.get(Layout.constraintIndex) ?? null,
          compiledExtended: result.outputs.get(Layout.extendedIndex) ?? null,
        };
      // The index goes last: the gate reads it, and everything it points at is then in place. The
      // parse memo is saved while a worker thread publishes the new folders of a large compile.
      await writeChanges(root, drift, result.outputs, {
        alongside: () => cache?.save(),
        ...parallel,
        thread,
      });
      return { diagnostics, changes: drift.map((d) => ({ path: d.path, action: WRITE_ACTION[d.kind] })), kept: result.kept };
    } finally {
      thread?.release();
    }
  };
  if (options.check) return once();
  // The lock lives beside the index: a constraints folder outside the root gets nothing, not even it.
  const lockProblem = outputFolderProblem(root, Layout.constraintsDir);
  if (lockProblem !== null) return { diagnostics: [outsideRoot(Layout.constraintsDir, lockProblem)], changes: [], kept: [] };
  return withLock(path.join(root, Layout.compileLock), once);
}

/** Lines in the registry (about one finding each), counted without decoding it. */
function lineCount(bytes: Buffer | null): number {
  let n = 0;
  if (bytes === null) return n;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n += 1;
  return n;
}

function stampOf(root: string, paths: readonly string[], settledBefore: number): StoredResult['stamps'] {
  const of = stampsOf(root, paths, settledBefore);
  return of === null ? null : { paths: pathsKey(paths), of };
}

/**
 * The git directory of `root` read from its `.git` (a folder, or a `gitdir:` file in a linked
 * worktree), which is where `git rev-parse --absolute-git-dir` points for such a root; null when
 * `.git` is neither, and the caller asks git. Saves a process per compile (the memos live there).
 */
function dotGitDir(root: string): string | null {
  const dotGit = path.join(root, '.git');
  try {
    if (lstatSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir: (.+?)\r?\n?$/.exec(readFileSync(dotGit, 'utf8'));
    return m ? path.resolve(root, m[1]!) : null;
  } catch {
    return null;
  }
}

function outsideRoot(dir: string, problem: string): Diagnostic {
  return diagnostic({
    file: dir,
    ruleId: 'compiler/output-outside-root',
    message: `refusing to write or remove anything in ${dir}: ${problem}`,
  });
}

/** Drops every change whose folder leaves the root, with one error per such folder. */
function containedDrift(root: string, drift: readonly Drift[]): { drift: Drift[]; diagnostics: Diagnostic[] } {
  const problems = new Map<string, string | null>();
  const kept: Drift[] = [];
  for (const d of drift) {
    const dir = path.posix.dirname(d.path);
    if (!problems.has(dir)) problems.set(dir, outputFolderProblem(root, dir));
    if (problems.get(dir) === null) kept.push(d);
  }
  const diagnostics: Diagnostic[] = [];
  for (const [dir, problem] of problems) if (problem !== null) diagnostics.push(outsideRoot(dir, problem));
  return { drift: kept, diagnostics };
}
