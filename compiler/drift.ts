/**
 * Drift: compile from a file source and compare with what that same source holds. The
 * pre-commit hook calls it with indexFiles(root) (staged content), pre-push with
 * commitFiles(root, sha); `findings compile --check` with the working tree.
 */
import type { Diagnostic } from '../src/diagnostics.js';
import type { RepoFiles } from '../src/repo-files.js';
import { compile } from './compile.js';
import { diffOutputs, type DriftKind } from './diff.js';
import { loadCompileInputs } from './load.js';

export async function compiledDrift(files: RepoFiles): Promise<{ diagnostics: Diagnostic[]; drift: { path: string; kind: DriftKind }[] }> {
  const inputs = await loadCompileInputs(files);
  const result = compile(inputs);
  return { diagnostics: result.diagnostics, drift: diffOutputs(inputs, result) };
}
