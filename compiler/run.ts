/**
 * `findings compile [--check]` without the CLI: load, compile, compare, and (unless checking)
 * write only files whose bytes change and remove orphans, all under compile.lock.
 */
import path from 'node:path';
import type { Diagnostic } from '../src/diagnostics.js';
import { withLock } from '../src/fs/lock.js';
import { Layout } from '../src/layout.js';
import { fastWorktreeFiles } from './fast-files.js';
import { compile } from './compile.js';
import { diffOutputs } from './diff.js';
import { pool, removeOutput, sweepTempFiles, writeOutput } from './emit.js';
import { loadCompileInputs } from './load.js';
import { openParseCache } from './parse-cache.js';

export type ChangeAction = 'created' | 'updated' | 'removed' | 'missing' | 'stale' | 'orphaned';

export interface CompileRun {
  diagnostics: Diagnostic[];
  changes: { path: string; action: ChangeAction }[];
}

const WRITE_ACTION = { missing: 'created', stale: 'updated', orphaned: 'removed' } as const;

/** Compiles the working tree at `root`. `check: true` writes nothing and reports drift instead. */
export async function runCompile(root: string, options: { check: boolean }): Promise<CompileRun> {
  const once = async (): Promise<CompileRun> => {
    const cache = await openParseCache(root);
    const inputs = await loadCompileInputs(fastWorktreeFiles(root), cache ?? undefined);
    const result = compile(inputs);
    if (!options.check) cache?.save();
    const drift = diffOutputs(inputs, result);
    if (options.check) return { diagnostics: result.diagnostics, changes: drift.map((d) => ({ path: d.path, action: d.kind })) };
    sweepTempFiles(root);
    // The index goes last: the gate reads it, and everything it points at is then in place.
    await pool(
      drift.filter((d) => d.path !== Layout.constraintIndex),
      16,
      async (d) => (d.kind === 'orphaned' ? removeOutput(root, d.path) : writeOutput(root, d.path, result.outputs.get(d.path)!)),
    );
    for (const d of drift.filter((x) => x.path === Layout.constraintIndex)) await writeOutput(root, d.path, result.outputs.get(d.path)!);
    return { diagnostics: result.diagnostics, changes: drift.map((d) => ({ path: d.path, action: WRITE_ACTION[d.kind] })) };
  };
  if (options.check) return once();
  return withLock(path.join(root, Layout.compileLock), once);
}
