/** What differs between compiled outputs and the files a source holds now. Pure. */
import { compareStrings } from '../src/diagnostics.js';
import { Layout } from '../src/layout.js';
import type { CompileInputs, CompileResult } from './compile.js';

export type DriftKind = 'missing' | 'stale' | 'orphaned';

export interface Drift {
  readonly path: string;
  readonly kind: DriftKind;
}

/** The bytes a source holds for an owned path, or null. */
export function currentBytes(inputs: CompileInputs, file: string): Buffer | string | null {
  if (file === Layout.constraintIndex) return inputs.previousIndex;
  if (file === Layout.extendedIndex) return inputs.previousExtended;
  return inputs.artifacts.get(file) ?? inputs.existing.get(file) ?? null;
}

function sameBytes(a: Buffer | string, b: string): boolean {
  return typeof a === 'string' ? a === b : a.equals(Buffer.from(b, 'utf8'));
}

/**
 * Missing, stale and orphaned files, sorted by path. Orphans are owned rule files with no output;
 * artifacts are never orphans (a promoted artifact becomes the user's source of truth), and the
 * index is never one (compile leaves an unreadable index alone rather than deleting it).
 */
export function diffOutputs(inputs: CompileInputs, result: CompileResult): Drift[] {
  const out: Drift[] = [];
  for (const [file, text] of result.outputs) {
    const cur = currentBytes(inputs, file);
    if (cur === null) out.push({ path: file, kind: 'missing' });
    else if (!sameBytes(cur, text)) out.push({ path: file, kind: 'stale' });
  }
  for (const file of inputs.existing.keys()) if (!result.outputs.has(file)) out.push({ path: file, kind: 'orphaned' });
  return out.sort((a, b) => compareStrings(a.path, b.path));
}

/**
 * True for the one missing output that is not drift for `compile --check`: an index that does not
 * exist yet and would hold no constraint (right after `findings init`, before any mechanical
 * finding), so CI passes on a freshly set-up repository. Pure.
 */
export function isAbsentEmptyIndex(d: Drift, result: CompileResult): boolean {
  if (d.path !== Layout.constraintIndex || d.kind !== 'missing') return false;
  try {
    const parsed = JSON.parse(result.outputs.get(d.path) ?? '') as { constraints?: unknown };
    return Array.isArray(parsed.constraints) && parsed.constraints.length === 0;
  } catch {
    return false;
  }
}
