/**
 * Writes the files a pull copies (artifacts, fixtures), the I/O edge of `planArtifacts`.
 *
 * A file is written when it is absent, or when it is still exactly what the previous pull of
 * the same source wrote (digest in sources.json); a file that differs — edited here, or never
 * ours — is kept (docs/reuse.md#design: a local edit survives a re-pull). No path may leave the root, not
 * even through a symlinked folder that does not exist yet at the target.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { readIfExists, writeFileAtomically } from '../fs/atomic.js';
import { normalizeRelative, relativePathProblem, resolveInsideRoot } from '../paths.js';
import { bytesDigest, copiedFileDigest } from './digest.js';
import type { PlannedFile } from './artifacts.js';
import type { SourceFileRecord } from './sources-file.js';

/**
 * Absolute target of a repository-relative path, or why it is unsafe: the shared containment
 * check every writer makes (src/paths.ts `resolveInsideRoot`), plus pull's own rule that a
 * symlink at the target is never replaced, even one pointing inside.
 */
export function safeTarget(root: string, rel: string): { abs: string } | { problem: string } {
  const problem = relativePathProblem(rel);
  if (problem) return { problem };
  const abs = path.join(root, normalizeRelative(rel));
  try {
    if (lstatSync(abs).isSymbolicLink()) return { problem: 'is a symlink here; not overwritten' };
  } catch {
    // absent: fine
  }
  const inside = resolveInsideRoot(root, rel);
  return 'problem' in inside
    ? {
        problem:
          inside.problem === 'leaves the repository through a symlink' ? 'would leave the repository through a symlink' : inside.problem,
      }
    : { abs };
}

export type FileAction = 'created' | 'updated' | 'unchanged' | 'kept';

export interface WrittenFile {
  readonly path: string;
  readonly action: FileAction;
}

/**
 * Applies planned copies. `dryRun` decides without writing. Returns what happened, the new file
 * records for sources.json and diagnostics.
 */
export async function writePlannedFiles(
  root: string,
  planned: readonly PlannedFile[],
  previous: readonly SourceFileRecord[],
  dryRun = false,
): Promise<{ files: WrittenFile[]; records: SourceFileRecord[]; diagnostics: Diagnostic[] }> {
  const prev = new Map(previous.map((f) => [f.path, f.digest]));
  const files: WrittenFile[] = [];
  const records: SourceFileRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const f of planned) {
    const target = safeTarget(root, f.path);
    if ('problem' in target) {
      diagnostics.push(
        diagnostic({ file: f.path, severity: 'warning', ruleId: 'pull/unsafe-path', message: `${f.path} ${target.problem}; not copied` }),
      );
      continue;
    }
    const digest = copiedFileDigest(f.path, f.bytes);
    const current = await readIfExists(target.abs);
    if (current?.equals(f.bytes)) {
      files.push({ path: f.path, action: 'unchanged' });
      records.push({ path: f.path, digest });
      continue;
    }
    // Untouched since the last pull: the digest ignores what compile and pull manage (an
    // artifact's status/superseded_by/tier lines); a record written before that rule holds the
    // plain byte digest, which still counts.
    const recorded = prev.get(f.path);
    const untouched =
      current !== null && recorded !== undefined && (recorded === copiedFileDigest(f.path, current) || recorded === bytesDigest(current));
    if (current !== null && !untouched) {
      // Edited here, or a file this source never wrote: it stays as it is.
      files.push({ path: f.path, action: 'kept' });
      if (recorded !== undefined) records.push({ path: f.path, digest: recorded });
      diagnostics.push(
        diagnostic({
          file: f.path,
          severity: 'info',
          ruleId: 'pull/kept-local-file',
          message: `${f.path} differs from the source's copy and was not written by the last pull; kept as it is`,
        }),
      );
      continue;
    }
    if (!dryRun) await writeFileAtomically(target.abs, f.bytes, { display: f.path });
    files.push({ path: f.path, action: current === null ? 'created' : 'updated' });
    records.push({ path: f.path, digest });
  }
  // A file this pull does not copy (its finding is retired at the source, say) keeps its record
  // while it exists here: the copy is still what an earlier pull wrote, so when the source offers
  // it again it is updated, not mistaken for a local file. A file deleted here is forgotten.
  const plannedPaths = new Set(planned.map((f) => f.path));
  for (const r of previous) {
    if (plannedPaths.has(r.path)) continue;
    const target = safeTarget(root, r.path);
    if ('problem' in target) continue;
    if ((await readIfExists(target.abs)) !== null) records.push(r);
  }
  return { files, records, diagnostics };
}
