/**
 * The types `findings validate` shares with the validators each area owns. A leaf module: the
 * area validators (registry, compiler, review ledger, generated files) import these types from
 * here, not from `src/validate/index.ts`, which imports them back through its table of
 * validators (ARCHITECTURE.md, "Import directions").
 */
import type { Diagnostic } from '../diagnostics.js';
import type { RepoFiles } from '../repo-files.js';

export type TargetKind =
  | 'registry'
  | 'artifact'
  | 'constraint-index'
  | 'review-ledger'
  | 'review-note'
  | 'task'
  | 'roles'
  | 'candidates'
  | 'measurement'
  | 'sources'
  | 'config';

export interface ValidateTarget {
  readonly kind: TargetKind;
  /** Display path (repository-relative when inside the root). */
  readonly file: string;
  readonly text: string;
}

export interface ValidateContext {
  /** Repository root (absolute). */
  readonly root: string;
  /** Where the content comes from; validators read cross-references (e.g. registry ids) through it. */
  readonly files: RepoFiles;
  /** The commit whose history vouches for ledger authorship (roles checks); null for the working tree or index. */
  readonly commit: string | null;
}

export type Validator = (targets: readonly ValidateTarget[], ctx: ValidateContext) => Promise<Diagnostic[]>;
