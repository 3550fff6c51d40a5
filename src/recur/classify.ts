/**
 * The defect class of a review finding (docs/contracts/compiler.md#recurrence-producer-defects: findings are grouped
 * by a defect class_key). Pure.
 *
 * Explicit: the finding's `class` slug. Derived (marked `derived: true`):
 *   `<scope>|<text-slug>`
 * - scope: the directory of the finding's file (`.` for a file at the root), or `-` without a file.
 *   Criterion ids are not used: `AC1` of one task and `AC1` of another name unrelated criteria.
 * - text-slug: the registry's pattern slug (docs/contracts/registry.md#canonical-normalization) of
 *   the `expected` text — or of `actual` when `expected` is a fixed text that says nothing about
 *   the defect (legacy `--issue` strings and CEO rejections), so those do not all fall in one class.
 * A derived key always contains `|` and an explicit slug never does, so the two cannot collide.
 */
import { patternSlug } from '../registry/normalize.js';

/** The fields of a review finding recurrence looks at (src/review/ledger.ts ReviewFinding has them all). */
export interface RecurFinding {
  readonly id: string;
  readonly task: string;
  readonly origin: string;
  readonly round: number;
  readonly severity: string;
  readonly file: string | null;
  readonly criterion: string | null;
  readonly expected: string;
  readonly actual: string;
  readonly fix: string | null;
  readonly class: string | null;
  readonly ledgerFile: string;
  readonly ledgerLine: number;
  readonly filedAt: string;
}

/** `expected` texts written by the tool itself rather than by a reviewer. */
export const FIXED_EXPECTED = new Set(['issue resolved', 'CEO sign-off on this task']);

export interface DefectClass {
  readonly key: string;
  readonly derived: boolean;
}

/** The directory part of a repository-relative path (`.` at the root). */
export function directoryOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash === -1 ? '.' : file.slice(0, slash);
}

/** The text that describes the defect. */
export function defectText(f: Pick<RecurFinding, 'expected' | 'actual' | 'origin'>): string {
  return FIXED_EXPECTED.has(f.expected) || f.origin === 'ceo' ? f.actual : f.expected;
}

/** A finding's class key. */
export function classOf(f: RecurFinding): DefectClass {
  const explicit = f.class?.trim();
  if (explicit) return { key: explicit, derived: false };
  const scope = f.file === null ? '-' : directoryOf(f.file);
  return { key: `${scope}|${patternSlug(defectText(f)) || '-'}`, derived: true };
}
