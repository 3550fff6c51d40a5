/**
 * `compile(inputs) → { outputs, diagnostics }`: the whole compiler as one pure function
 * (CONTRIBUTING.md#code-habits, "Pure core"). Loading (compiler/load.ts) and writing (compiler/run.ts) are the
 * edges; the pre-commit and pre-push hooks run the same function over staged or pushed content
 * (compiler/drift.ts).
 *
 * Ownership: `outputs` holds the full bytes of every file this compile decides — planning rules,
 * pre-mortem checks, the constraint index, and the artifacts it promotes or carries a lifecycle
 * change into. Owned files that exist but are not in `outputs` are orphans (run removes them).
 */
import { compareStrings, diagnostic, sortDiagnostics, type Diagnostic } from '../src/diagnostics.js';
import {
  parseConstraintSet,
  serializeConstraintSet,
  serializeExtendedIndex,
  type ConstraintTexts,
} from '../src/constraints/constraint-set.js';
import { decodeText, findFence, MAX_FRONT_MATTER_FILE_BYTES, readFrontMatter, type FrontMatterResult } from '../src/frontmatter.js';
import { artifactPath, idFileNameProblem, Layout, planningRulePath, preMortemCheckPath } from '../src/layout.js';
import type { RegistryLine } from '../src/registry/reader.js';
import { constraintIdFor, type ConstraintEntry } from '../src/types.js';
import { freshEntry, qualifiedEntry, retiredEntry } from './constraints.js';
import { placed } from './placement.js';
import { checkArtifact, findingKeyLine, idFromPath, normalizeTargets, type Finding } from './model.js';
import { canonicalEntries, carryLifecycle, promotedFrontMatter, promotedYaml, renderPromotedArtifact } from './promote.js';
import { qualify, type FixtureSource } from './qualify.js';
import { ruleOutputs, upstreamChecksKept } from './rules.js';

/**
 * A memo of front-matter parses by file text (parsing is pure, so a hit is the same answer).
 * `set` may be given data with a prototype (the compiler's own promoted front matter, which it
 * never changes afterwards); `get` always answers as a parse does, its data without one.
 */
export interface ParseCache {
  get(bytes: Buffer | string, file: string): FrontMatterResult | undefined;
  set(bytes: Buffer | string, file: string, result: MemoResult): void;
}

/** What a memo is given: a parse's result, or the compiler's own front matter for a text it rendered. */
export type MemoResult = FrontMatterResult | { readonly ok: true; readonly data: object; readonly yamlLine: number; readonly yaml: string };

export interface CompileInputs {
  /** Valid registry lines and the reader's warnings (fail-open). */
  readonly registry: { readonly entries: readonly RegistryLine[]; readonly warnings: readonly Diagnostic[] };
  /** `.agents/findings/<id>.md` → bytes. */
  readonly artifacts: ReadonlyMap<string, Buffer | string>;
  /** Normalised fixture ref → what the loader found there. */
  readonly fixtures: ReadonlyMap<string, FixtureSource>;
  /** Text of `.agents/constraints/index.json`, or null when absent. */
  readonly previousIndex: string | null;
  /** Text of `.agents/constraints/extended.json`, or null when absent. */
  readonly previousExtended: string | null;
  /**
   * Rule files present now → bytes: planning rules and pre-mortem checks (owned), and the
   * agentops compiler's `.agents/premortem-checks/*.md` (read only, kept as they are).
   */
  readonly existing: ReadonlyMap<string, Buffer | string>;
  readonly parseCache?: ParseCache;
}

export interface CompileResult {
  /** Repository path → full bytes of every file the compiler owns for these inputs. */
  readonly outputs: Map<string, string>;
  readonly diagnostics: Diagnostic[];
  /** Ids of constraint entries kept as they were because no artifact here wrote them (upstream's, or hand-written). */
  readonly kept: string[];
}

export function parseArtifact(text: Buffer | string, file: string, cache: ParseCache | undefined): FrontMatterResult {
  if (!cache) return readFrontMatter(text, file);
  const hit = cache.get(text, file);
  if (hit) return hit;
  const r = readFrontMatter(text, file);
  cache.set(text, file, r);
  return r;
}

const asText = (b: Buffer | string): string => (typeof b === 'string' ? b : b.toString('utf8'));
const BOM = '\uFEFF';

/** Compiles findings into outputs. Pure: same inputs, same bytes, whatever the clock or locale. */
export function compile(inputs: CompileInputs): CompileResult {
  const diagnostics: Diagnostic[] = [...inputs.registry.warnings];
  const outputs = new Map<string, string>();

  // 1. Read the artifacts. An unreadable one still "exists": promotion never overwrites it, and
  //    its previous outputs are kept untouched until it is fixed.
  const findings = new Map<string, Finding>();
  const texts = new Map<string, Buffer | string>();
  const broken = new Set<string>();
  const existingIds = new Set<string>();
  for (const file of [...inputs.artifacts.keys()].sort(compareStrings)) {
    const id = idFromPath(file);
    existingIds.add(id);
    const bytes = inputs.artifacts.get(file)!;
    texts.set(id, bytes);
    const check = checkArtifact(file, parseArtifact(bytes, file, inputs.parseCache));
    if (check.ok) findings.set(id, check.finding);
    else {
      broken.add(id);
      diagnostics.push(...check.diagnostics);
    }
  }
  const byDedupKey = new Map<string, Finding>();
  for (const f of findings.values()) if (!byDedupKey.has(f.data.dedup_key)) byDedupKey.set(f.data.dedup_key, f);

  // 2. Promote, or carry lifecycle into the artifact that already exists.
  const canonical = canonicalEntries(inputs.registry.entries);
  diagnostics.push(...canonical.diagnostics);
  for (const { entry, line } of canonical.entries) {
    const own = existingIds.has(entry.id) ? entry.id : undefined;
    const target = own !== undefined ? findings.get(own) : byDedupKey.get(entry.dedup_key);
    if (own === undefined && target === undefined) {
      if (entry.status !== 'active') continue;
      const idProblem = idFileNameProblem(entry.id);
      if (idProblem !== null) {
        diagnostics.push(
          diagnostic({
            file: Layout.registry,
            line,
            severity: 'warning',
            ruleId: 'compiler/unsafe-id',
            message: `id "${entry.id}" cannot be promoted: it ${idProblem} to become a file name`,
          }),
        );
        continue;
      }
      const path = artifactPath(entry.id);
      const data = promotedFrontMatter(entry);
      const text = renderPromotedArtifact(entry, data);
      const size = Buffer.byteLength(text);
      if (size > MAX_FRONT_MATTER_FILE_BYTES) {
        // Every later compile and validate would refuse the file (artifact/too-large).
        diagnostics.push(
          diagnostic({
            file: Layout.registry,
            line,
            severity: 'warning',
            ruleId: 'compiler/too-large',
            message:
              `"${entry.id}" is not promoted: its artifact would be ${size} bytes, over ` +
              `the ${MAX_FRONT_MATTER_FILE_BYTES}-byte artifact cap; shorten the registry line's text fields`,
          }),
        );
        continue;
      }
      const yaml = promotedYaml(text);
      outputs.set(path, text);
      findings.set(entry.id, { id: entry.id, path, data, yaml, yamlLine: 2, targets: normalizeTargets(data.compiler_targets) });
      // Seeds the memo: the rendered text parses to exactly this data (a test holds the
      // renderer to it), so the next compile need not parse 10,000 fresh artifacts. The memo
      // gives it back with no prototype, as a parse does (ParseCache), only if it is asked.
      inputs.parseCache?.set(text, path, { ok: true, data, yamlLine: 2, yaml });
      continue;
    }
    if (target === undefined || (entry.status !== 'retired' && entry.status !== 'superseded')) continue;
    if (target.data.status !== 'active' && target.data.status !== 'draft') continue;
    const superseder = entry.superseded_by;
    if (entry.status === 'superseded' && !superseder) continue;
    const text = asText(texts.get(target.id)!);
    const decoded = decodeText(text, target.path);
    const fence = decoded.ok ? findFence(decoded.text, target.path) : null;
    const edited = fence?.ok && decoded.ok ? carryLifecycle(decoded.text, fence.fence.closeLine, entry.status, superseder) : null;
    const recheck = edited === null ? null : checkArtifact(target.path, readFrontMatter(edited, target.path));
    if (edited === null || !recheck?.ok) {
      diagnostics.push(
        diagnostic({
          file: target.path,
          line: findingKeyLine(target, 'status'),
          severity: 'warning',
          ruleId: 'compiler/lifecycle',
          message:
            `registry line ${line} marks "${entry.id}" ${entry.status}, but the artifact's ` +
            `front matter has no plain top-level "status:" line to update; set it by hand`,
        }),
      );
      // The registry's retirement still holds for the outputs: no rule, no check, no live entry.
      findings.set(target.id, { ...target, data: { ...target.data, status: entry.status } });
      continue;
    }
    // decodeText drops a UTF-8 BOM; put it back so only the lifecycle lines change.
    outputs.set(target.path, text.startsWith(BOM) ? BOM + edited : edited);
    findings.set(target.id, recheck.finding);
  }

  // 3. Advisory outputs and constraints, finding by finding. Each entry compile writes goes to
  //    the file of the set it belongs in (compiler/placement.ts); entries kept as they were keep theirs.
  const previous = previousEntries({ index: inputs.previousIndex, extended: inputs.previousExtended }, diagnostics);
  const entries: ConstraintEntry[] = [];
  for (const id of [...findings.keys()].sort(compareStrings)) {
    const f = findings.get(id)!;
    const prev = previous?.get(constraintIdFor(id));
    if (f.data.status !== 'active') {
      // Lifecycle: retired, superseded and draft findings leave nothing active behind.
      if (prev) entries.push(placed(retiredEntry(prev)));
      continue;
    }
    for (const r of ruleOutputs(f, inputs.existing)) outputs.set(r.path, r.text);
    if (!f.targets.has('constraint')) {
      keepActive(f, prev, 'its finding no longer has the "constraint" target', entries, diagnostics);
      continue;
    }
    if (f.data.detectability !== 'mechanical') {
      diagnostics.push(
        diagnostic({
          file: f.path,
          line: findingKeyLine(f, 'detectability'),
          severity: 'warning',
          ruleId: 'compiler/not-mechanical',
          message: 'the "constraint" target needs detectability: mechanical; no constraint is compiled',
        }),
      );
      keepActive(f, prev, 'its finding is no longer mechanical', entries, diagnostics);
      continue;
    }
    const q = qualify(f, inputs.fixtures);
    if (!q.ok) {
      diagnostics.push(...q.diagnostics);
      keepActive(f, prev, 'its finding no longer qualifies (see the other diagnostics of this file)', entries, diagnostics);
      continue;
    }
    entries.push(placed(qualifiedEntry(freshEntry(f, q.refs), prev)));
  }

  // Upstream's own pre-mortem-checks folder is read, never written (docs/compiler.md).
  for (const r of upstreamChecksKept(inputs.existing)) outputs.set(r.path, r.text);

  // 4. An artifact that cannot be read keeps what it had, so one typo does not drop its rules.
  for (const id of broken) {
    for (const p of [planningRulePath(id), preMortemCheckPath(id)]) {
      const had = inputs.existing.get(p);
      if (had !== undefined) outputs.set(p, asText(had));
    }
    const prev = previous?.get(constraintIdFor(id));
    if (prev) entries.push(prev);
  }
  // 5. An entry no artifact here wrote (upstream's compiler or a hand edit put it there) is kept
  //    as it is, in its file: compile never drops what it did not write.
  const kept: string[] = [];
  for (const [id, prev] of previous ?? []) {
    if (existingIds.has(id) || findings.has(id)) continue;
    entries.push(prev);
    kept.push(id);
  }
  if (previous !== null) {
    const files = serializeConstraintSet({ schema_version: 1, constraints: entries });
    outputs.set(Layout.constraintIndex, files.index);
    // extended.json is written when something belongs there or it exists (never created empty).
    if (files.extended !== null || inputs.previousExtended !== null)
      outputs.set(Layout.extendedIndex, files.extended ?? serializeExtendedIndex([]));
  }
  return { outputs, diagnostics: sortDiagnostics(diagnostics), kept: kept.sort(compareStrings) };
}

/**
 * An active constraint never stops blocking silently (docs/compiler.md, "An active constraint
 * stays until it is retired"): when its finding is still active but no longer compiles to a
 * constraint, the entry is kept exactly as it was (detector, measurement and all) and the compile
 * fails, so the gate goes on enforcing the last qualified detector until the finding is fixed
 * or the constraint is retired on purpose. Entries that are not active are dropped as before.
 */
function keepActive(
  f: Finding,
  prev: ConstraintEntry | undefined,
  why: string,
  entries: ConstraintEntry[],
  diagnostics: Diagnostic[],
): void {
  // A retired entry stays for history, as it was (its retirement is recorded, not recompiled).
  if (prev?.status === 'retired') entries.push(prev);
  if (prev === undefined || prev.status !== 'active') return;
  entries.push(prev);
  diagnostics.push(
    diagnostic({
      file: f.path,
      line: findingKeyLine(f, 'compiler'),
      ruleId: 'compiler/active-unqualified',
      message:
        `active constraint "${prev.id}" cannot be recompiled: ${why}. It is kept in the index exactly as it was, and the gate keeps ` +
        `enforcing its last qualified detector; fix the finding, or retire the constraint on purpose with \`findings constraint retire ${prev.id}\``,
    }),
  );
}

/** Previous entries by id (both files); null (and an error) when either cannot be read — both are then left alone. */
function previousEntries(texts: ConstraintTexts, diagnostics: Diagnostic[]): Map<string, ConstraintEntry> | null {
  const parsed = parseConstraintSet(texts);
  if (!parsed.ok) {
    diagnostics.push(...parsed.diagnostics);
    diagnostics.push(
      diagnostic({
        file: Layout.constraintIndex,
        line: 1,
        ruleId: 'compiler/index-unreadable',
        message:
          'the constraint index is not valid, so it is not rewritten (its active entries would be lost); fix it, or delete it to rebuild it from the artifacts',
      }),
    );
    return null;
  }
  return new Map(parsed.index.constraints.map((c) => [c.id, c]));
}
