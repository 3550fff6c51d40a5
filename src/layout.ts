/** Every path of the `.agents/` layout, in one place (contracts: finding-registry.md, finding-compiler.md). */
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
  compileLock: '.agents/constraints/compile.lock',
  fixturesDir: '.agents/constraints/fixtures',
  measurementsDir: '.agents/constraints/measurements',
  reviewsDir: '.agents/reviews',
  tasksDir: '.agents/tasks',
  roles: '.agents/roles.json',
  config: '.agents/config.json',
} as const;

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
