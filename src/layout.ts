/** Every path of the `.agents/` layout, in one place (contracts: docs/contracts/registry.md, docs/contracts/compiler.md). */
export const Layout = {
  agentsDir: '.agents',
  findingsDir: '.agents/findings',
  registry: '.agents/findings/registry.jsonl',
  registryLock: '.agents/findings/registry.lock',
  candidates: '.agents/findings/candidates.jsonl',
  sources: '.agents/findings/sources.json',
  planningRulesDir: '.agents/planning-rules',
  preMortemChecksDir: '.agents/pre-mortem-checks',
  constraintsDir: '.agents/constraints',
  constraintIndex: '.agents/constraints/index.json',
  /** Entries upstream's gate cannot take as they are (docs/compiler.md "The extended index"). */
  extendedIndex: '.agents/constraints/extended.json',
  compileLock: '.agents/constraints/compile.lock',
  fixturesDir: '.agents/constraints/fixtures',
  measurementsDir: '.agents/constraints/measurements',
  reviewsDir: '.agents/reviews',
  tasksDir: '.agents/tasks',
  roles: '.agents/roles.json',
  config: '.agents/config.json',
} as const;

/** True for either file of the constraint set (index.json, extended.json; src/constraints/constraint-set.ts). */
export const isConstraintFile = (path: string): boolean => path === Layout.constraintIndex || path === Layout.extendedIndex;

/** `.agents/findings/<id>.md` */
export const artifactPath = (id: string): string => `${Layout.findingsDir}/${id}.md`;
export const planningRulePath = (id: string): string => `${Layout.planningRulesDir}/${id}.md`;
export const preMortemCheckPath = (id: string): string => `${Layout.preMortemChecksDir}/${id}.md`;
export const measurementPath = (id: string): string => `${Layout.measurementsDir}/${id}.json`;
export const reviewLedgerPath = (task: string): string => `${Layout.reviewsDir}/${task}.jsonl`;
export const reviewNotePath = (task: string): string => `${Layout.reviewsDir}/${task}.md`;
export const taskPath = (task: string): string => `${Layout.tasksDir}/${task}.json`;
export const reviewLockPath = (task: string): string => `${Layout.reviewsDir}/${task}.lock`;

/** Artifact ids become file names: keep them to a safe alphabet. */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Device names Windows reserves in every folder, with or without an extension (`CON`, `con.md`, `COM1.txt`). */
const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])(?:\..*)?$/i;

/**
 * Why an id cannot become a file name on every platform, or null. Beyond SAFE_ID: Windows
 * reserved device names (a checkout there cannot create `CON.md`) and a trailing dot or space
 * (Windows drops it, so `a.` and `a` would be one file). Pure.
 */
export function idFileNameProblem(id: string): string | null {
  if (!SAFE_ID.test(id)) return `must match ${SAFE_ID.source}`;
  if (WINDOWS_RESERVED.test(id))
    return `is a device name Windows reserves (${id.split('.')[0]!.toUpperCase()}), so Windows checkouts cannot create its file`;
  if (/[. ]$/.test(id)) return 'ends with a dot or a space, which Windows drops from file names';
  return null;
}

/** The id among `existing` that differs from `id` only in case (one file on case-insensitive file systems), if any. */
export function caseClash(id: string, existing: Iterable<string>): string | undefined {
  const lower = id.toLowerCase();
  for (const other of existing) if (other !== id && other.toLowerCase() === lower) return other;
  return undefined;
}
