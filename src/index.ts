/**
 * The programmatic API: the same operations as the CLI, returning values (diagnostics as data)
 * instead of setting exit codes. The list is explicit and asserted by test/kernel/api.test.ts.
 */
export { diagnostic, sortDiagnostics, compareDiagnostics, hasErrors, type Diagnostic, type Severity } from './diagnostics.js';
export { ExitCode, UsageError } from './exit-codes.js';
export { runCli } from './cli/main.js';
export { worktreeFiles, indexFiles, commitFiles, type RepoFiles } from './repo-files.js';
export { readRegistry, parseRegistry } from './registry/reader.js';
export { normalizeDedupKey } from './registry/normalize.js';
export { addEntries, updateRegistry, retireEntries, citeEntries } from './registry/writer.js';
export { rankEntries } from './registry/rank.js';
export { validateRepository, validateFiles } from './validate/index.js';
export { parseConstraintIndex, serializeConstraintIndex } from './constraints/index-file.js';
export { compileDetector, evaluate } from './match/detector.js';
export { compile } from '../compiler/compile.js';
export { loadCompileInputs } from '../compiler/load.js';
export { runCompile } from '../compiler/run.js';
export { compiledDrift } from '../compiler/drift.js';
export { checkConstraints } from '../hooks/check.js';
export { preCommit } from '../hooks/pre-commit.js';
export { prePush } from '../hooks/pre-push.js';
export { foldEvents, readLedger, readAllLedgers, readTask } from './review/ledger.js';
export { renderFinding } from './review/render.js';
export { reviewPushGate } from './review/gate.js';
export { runRecurrence, promoteCandidate } from './recur/run.js';
export { measureConstraints } from './lifecycle/measure.js';
export { labelHits } from './lifecycle/label.js';
export { activateConstraint } from './lifecycle/activate.js';
export { retireConstraint } from './lifecycle/retire.js';
export { ttlRun } from './lifecycle/ttl.js';
export { pullSource, checkSources } from './reuse/pull.js';
export { loadExplainSources } from './reuse/explain/load.js';
export { explain } from './reuse/explain/chain.js';
export type { RegistryEntry, ArtifactFrontMatter, ConstraintEntry, ConstraintIndex } from './types.js';
