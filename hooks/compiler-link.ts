/**
 * The hooks' only door into the compiler, imported lazily (docs/stack-pitfalls.md#9: the compiler pulls in
 * unified/remark, ~170 ms) and only when finding sources are involved. hooks/ may call the
 * compiler, never the reverse (ARCHITECTURE.md "Layers").
 */
import type { Diagnostic } from '../src/diagnostics.js';
import type { RepoFiles } from '../src/repo-files.js';

export interface DriftEntry {
  readonly path: string;
  readonly kind: 'missing' | 'stale' | 'orphaned';
}

export interface DriftResult {
  readonly diagnostics: Diagnostic[];
  readonly drift: DriftEntry[];
}

/** The command that brings compiled outputs back in line with their sources. */
export const FIX_COMMAND = 'npx findings-compile && git add .agents';

/** `compiledDrift` from compiler/drift.ts (docs/compiler.md), loaded on demand. */
export async function compiledDrift(files: RepoFiles): Promise<DriftResult> {
  const mod = await import('../compiler/drift.js');
  return mod.compiledDrift(files);
}
