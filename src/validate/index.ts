/**
 * `findings validate`: one dispatcher over every file format. Each format's rules live with
 * their owner (registry, compiler, review ledger); this module only finds the files, reads them
 * once, and routes them by kind. Its table of validators is a composition root: it is the one
 * kernel module that loads compiler/ modules (ARCHITECTURE.md, "Import directions"); the
 * validators import their shared types from the leaf `./types.ts`, never from here. The same
 * function runs on the working tree, the index (pre-commit) and a commit (pre-push, CI).
 */
import type { Diagnostic } from '../diagnostics.js';
import { Layout } from '../layout.js';
import type { RepoFiles } from '../repo-files.js';
import { readMany } from '../repo-files.js';
import type { TargetKind, ValidateContext, ValidateTarget, Validator } from './types.js';

export type { TargetKind, ValidateContext, ValidateTarget, Validator } from './types.js';

/** The explicit, ordered list of validators, each loaded on demand. */
const VALIDATORS: Record<TargetKind, () => Promise<Validator>> = {
  registry: async () => (await import('../registry/validate.js')).validateRegistryTargets,
  artifact: async () => (await import('../../compiler/validate-artifacts.js')).validateArtifactTargets,
  'constraint-index': async () => (await import('../../compiler/validate-index.js')).validateIndexTargets,
  'review-ledger': async () => (await import('../review/validate.js')).validateLedgerTargets,
  'review-note': async () => (await import('../review/note-check.js')).validateNoteTargets,
  task: async () => (await import('../review/validate.js')).validateTaskTargets,
  roles: async () => (await import('../review/validate.js')).validateRolesTargets,
  candidates: async () => (await import('./generated-files.js')).validateCandidateTargets,
  measurement: async () => (await import('./generated-files.js')).validateMeasurementTargets,
  sources: async () => (await import('./generated-files.js')).validateSourcesTargets,
  config: async () => (await import('./generated-files.js')).validateConfigTargets,
};

export const KIND_ORDER: readonly TargetKind[] = [
  'registry',
  'artifact',
  'constraint-index',
  'review-ledger',
  'review-note',
  'task',
  'roles',
  'candidates',
  'measurement',
  'sources',
  'config',
];

/** Classifies a path by name; null when validate has no rules for it. Pure. */
export function classifyPath(file: string): TargetKind | null {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dir = file.slice(0, file.lastIndexOf('/') + 1);
  if ((base === 'index.json' || base === 'extended.json') && dir.endsWith('constraints/')) return 'constraint-index';
  if (base === 'roles.json') return 'roles';
  if (dir.endsWith('tasks/') && base.endsWith('.json')) return 'task';
  if (dir.endsWith('reviews/') && base.endsWith('.jsonl')) return 'review-ledger';
  if (dir.endsWith('.agents/reviews/') && base.endsWith('.md')) return 'review-note';
  if (base === 'candidates.jsonl') return 'candidates';
  if (base === 'sources.json' && dir.endsWith('findings/')) return 'sources';
  if (base === 'config.json' && dir.endsWith('.agents/')) return 'config';
  if (dir.endsWith('measurements/') && base.endsWith('.json')) return 'measurement';
  if (base.endsWith('.jsonl')) return 'registry';
  if (dir.endsWith('findings/') && base.endsWith('.md')) return 'artifact';
  if (base === 'index.json') return 'constraint-index';
  if (base.endsWith('.md')) return 'artifact';
  return null;
}

/** Every file of the repository's layout that validate checks by default, sorted. */
export async function defaultTargets(files: RepoFiles): Promise<string[]> {
  const [findings, constraints, reviews, tasks, agents] = await Promise.all([
    files.list(Layout.findingsDir),
    files.list(Layout.constraintsDir),
    files.list(Layout.reviewsDir),
    files.list(Layout.tasksDir),
    files.list(Layout.agentsDir),
  ]);
  const wanted = new Set<string>();
  for (const f of findings) {
    if (f === Layout.registry || f === Layout.candidates || f === Layout.sources) wanted.add(f);
    else if (/^\.agents\/findings\/[^/]+\.md$/.test(f)) wanted.add(f);
  }
  for (const f of constraints) {
    if (f === Layout.constraintIndex || f === Layout.extendedIndex || /^\.agents\/constraints\/measurements\/[^/]+\.json$/.test(f))
      wanted.add(f);
  }
  for (const f of reviews) if (/^\.agents\/reviews\/[^/]+\.(?:jsonl|md)$/.test(f)) wanted.add(f);
  for (const f of tasks) if (/^\.agents\/tasks\/[^/]+\.json$/.test(f)) wanted.add(f);
  if (agents.includes(Layout.roles)) wanted.add(Layout.roles);
  if (agents.includes(Layout.config)) wanted.add(Layout.config);
  return [...wanted].sort();
}

/** Reads the given repository files and validates them by kind. Missing files are skipped. */
export async function validateFiles(paths: readonly string[], ctx: ValidateContext): Promise<Diagnostic[]> {
  const contents = await readMany(ctx.files, paths);
  const targets: ValidateTarget[] = [];
  for (const file of paths) {
    const kind = classifyPath(file);
    const data = contents.get(file);
    if (kind === null || data === null || data === undefined) continue;
    targets.push({ kind, file, text: data.toString('utf8') });
  }
  return validateTargets(targets, ctx);
}

/** Routes already-read targets to their validators. */
export async function validateTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const kind of KIND_ORDER) {
    const mine = targets.filter((t) => t.kind === kind);
    if (mine.length === 0) continue;
    const validator = await VALIDATORS[kind]();
    out.push(...(await validator(mine, ctx)));
  }
  return out;
}

/** Validates the whole layout of a file source. */
export async function validateRepository(ctx: ValidateContext): Promise<Diagnostic[]> {
  // A registry that exists but cannot be read (a folder, a file where the folder should be) is
  // unreadable input (exit 2), not an empty registry.
  await (await import('../registry/validate.js')).assertRegistryReadable(ctx.files);
  return validateFiles(await defaultTargets(ctx.files), ctx);
}
