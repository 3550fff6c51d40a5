/**
 * `findings pull` composed (docs/reuse.md): fetch the source privately, read its registry, artifacts
 * and fixtures with git plumbing, plan the merge (merge.ts, artifacts.ts), and write — files and
 * sources.json first, then the registry, all under `.agents/findings/registry.lock` through the
 * registry writer. Why that order: if the process dies in between, sources.json may claim an id
 * the registry lacks (the next pull appends it again) but never the reverse, which would leave a
 * pulled line no source owns and that later pulls could not update.
 */
import path from 'node:path';
import { compareStrings, diagnostic, hasErrors, type Diagnostic } from '../diagnostics.js';
import { UsageError } from '../exit-codes.js';
import { readIfExists } from '../fs/atomic.js';
import { repoTarget, writeRepoFile } from '../fs/repo-write.js';
import { sweepStalePullDirs } from '../fs/temp-dirs.js';
import { classifySource, fetchSource, refProblem, remoteCommit, sourceProblem, type FetchFailure } from '../git/pull.js';
import type { BlobEntry } from '../git/core.js';
import { Layout } from '../layout.js';
import { parseRegistry } from '../registry/reader.js';
import { updateRegistry } from '../registry/writer.js';
import { artifactPathsToRead, planArtifacts, type PlannedFile } from './artifacts.js';
import { planPull } from './merge.js';
import {
  EMPTY_SOURCES,
  parseSourcesFile,
  recordedUrl,
  recordLine,
  serializeSourcesFile,
  sourceFromRecord,
  type PullTier,
  type SourceRecord,
  type SourcesFile,
} from './sources-file.js';
import { writePlannedFiles, type WrittenFile } from './write-files.js';

export interface PullRequest {
  /** A local path (resolved against `cwd`) or a URL git can fetch. */
  readonly source: string;
  /** Default `HEAD`. */
  readonly ref?: string;
  /** Default `pulled`. */
  readonly tier?: PullTier;
  readonly cwd: string;
}

/** `pulled`: done (warnings allowed); `rejected`: the source's content is unusable (exit 1); `unreadable`: the source cannot be read at all (exit 2). */
export type PullOutcome = 'pulled' | 'rejected' | 'unreadable';

export interface PullResult {
  readonly outcome: PullOutcome;
  readonly url: string;
  readonly ref: string;
  readonly commit: string | null;
  readonly tier: PullTier;
  readonly added: readonly string[];
  readonly updated: readonly string[];
  readonly unchanged: readonly string[];
  readonly retired: readonly string[];
  readonly keptLocal: readonly string[];
  readonly files: readonly WrittenFile[];
  readonly registryChanged: boolean;
  readonly sourcesChanged: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

const PREFIXES = [`${Layout.findingsDir}/`, `${Layout.fixturesDir}/`];

function validateRequest(req: { source: string; ref?: string }): void {
  const problem = sourceProblem(req.source);
  if (problem !== null) throw new UsageError(`source "${req.source}" ${problem}`);
  if (req.ref !== undefined) {
    const refIssue = refProblem(req.ref);
    if (refIssue !== null) throw new UsageError(`--ref "${req.ref}" ${refIssue}`);
  }
}

function failureDiagnostic(url: string, ref: string, failure: FetchFailure): Diagnostic {
  const what = {
    missing: 'cannot be read',
    'not-a-repository': 'is not a git repository',
    unreachable: 'cannot be fetched',
    'bad-ref': `has no ref "${ref}"`,
  }[failure.kind];
  return diagnostic({ file: url, ruleId: `pull/${failure.kind}`, message: `source ${what}: ${failure.message}; nothing changed` });
}

/** Reads and parses sources.json from the working tree (missing → empty). */
export async function readSources(
  root: string,
): Promise<{ ok: true; value: SourcesFile; text: string | null } | { ok: false; diagnostics: Diagnostic[] }> {
  const data = await readIfExists(path.join(root, Layout.sources));
  if (data === null) return { ok: true, value: EMPTY_SOURCES, text: null };
  const text = data.toString('utf8');
  const parsed = parseSourcesFile(text);
  return parsed.ok ? { ok: true, value: parsed.value, text } : parsed;
}

/** Pulls one source into the repository at `root`. Bad input → diagnostics and nothing changed. */
export async function pullSource(root: string, req: PullRequest): Promise<PullResult> {
  validateRequest(req);
  // Checked before fetching: a symlinked sources.json must stop the pull before any file is copied.
  repoTarget(root, Layout.sources);
  const ref = req.ref ?? 'HEAD';
  const tier = req.tier ?? 'pulled';
  const classified = classifySource(req.source, req.cwd);
  const url = recordedUrl(classified, root);
  const base = {
    url,
    ref,
    tier,
    added: [],
    updated: [],
    unchanged: [],
    retired: [],
    keptLocal: [],
    files: [],
    registryChanged: false,
    sourcesChanged: false,
  };
  const fail = (outcome: PullOutcome, diagnostics: Diagnostic[], commit: string | null = null): PullResult => ({
    ...base,
    outcome,
    commit,
    diagnostics,
  });

  // Leftovers of pulls killed with SIGKILL (signals are cleaned up as they happen).
  sweepStalePullDirs();
  const fetched = await fetchSource(classified, ref);
  if (!fetched.ok) return fail('unreadable', [failureDiagnostic(url, ref, fetched.failure)]);
  const src = fetched.source;
  try {
    const label = url.replace(/\/+$/, '');
    const sourceFile = `${label}/${Layout.registry}`;
    const tree = new Map<string, BlobEntry>((await src.entries(PREFIXES)).map((e) => [e.path, e]));
    const registryBlob = tree.get(Layout.registry);
    if (registryBlob === undefined || registryBlob.mode === '120000') {
      return fail(
        'rejected',
        [
          diagnostic({
            file: sourceFile,
            ruleId: 'pull/no-registry',
            message: `the source has no ${Layout.registry} at ${src.commit.slice(0, 12)} (${ref}); nothing changed`,
          }),
        ],
        src.commit,
      );
    }
    const bytes = (await src.readBlobs([registryBlob.sha])).get(registryBlob.sha);
    const parsed = parseRegistry((bytes ?? Buffer.alloc(0)).toString('utf8'));
    const sourceDiagnostics: Diagnostic[] = [];
    for (const p of parsed.problems) {
      if (p.kind === 'yaml-block') {
        // The agentops registry opens with a YAML block (docs/registry.md): report once, read the rest.
        if (p.line === 1)
          sourceDiagnostics.push(
            diagnostic({ file: sourceFile, line: 1, severity: 'warning', ruleId: 'pull/source-yaml-block', message: p.reason }),
          );
        continue;
      }
      sourceDiagnostics.push(
        diagnostic({ file: sourceFile, line: p.line, ruleId: 'pull/source-line', message: `${p.reason} (at ${src.commit.slice(0, 12)})` }),
      );
    }
    if (hasErrors(sourceDiagnostics)) {
      // A malformed line could hide an entry the source still has: retiring what "disappeared"
      // would then be wrong, so the whole source is refused.
      return fail(
        'rejected',
        [
          ...sourceDiagnostics,
          diagnostic({
            file: sourceFile,
            ruleId: 'pull/source-rejected',
            message: 'the source registry has malformed lines; nothing changed (fix them in the source and pull again)',
          }),
        ],
        src.commit,
      );
    }

    const { result, changed } = await updateRegistry(root, async (doc) => {
      const sources = await readSources(root);
      if (!sources.ok) return { ok: false as const, diagnostics: sources.diagnostics };
      const record = sources.value.sources.find((s) => s.url === url);
      const ownedElsewhere = new Set(sources.value.sources.filter((s) => s.url !== url).flatMap((s) => s.entries.map((e) => e.id)));
      const plan = planPull({
        registry: doc.entries,
        incoming: parsed.entries.map((l) => l.entry),
        record,
        ownedElsewhere,
        tier,
        sourceFile,
      });

      const artifactInput = { tree, written: plan.written, tier, sourceLabel: label };
      const artifactPaths = artifactPathsToRead(artifactInput);
      const artifactBlobs = await src.readBlobs(artifactPaths.map((p) => tree.get(p)!.sha));
      const artifacts = new Map(artifactPaths.map((p) => [p, artifactBlobs.get(tree.get(p)!.sha) ?? null]));
      const planned = planArtifacts(artifactInput, artifacts);
      const fixtureBlobs = await src.readBlobs(planned.fixtures.map((f) => tree.get(f.path)!.sha));
      const files: PlannedFile[] = [
        ...planned.files,
        ...planned.fixtures.map((f) => ({
          path: f.path,
          findingId: f.findingId,
          bytes: fixtureBlobs.get(tree.get(f.path)!.sha) ?? Buffer.alloc(0),
        })),
      ];
      const written = await writePlannedFiles(root, files, record?.files ?? []);

      const next: SourceRecord = { url, ref, commit: src.commit, tier, entries: plan.entries, files: written.records };
      const others = sources.value.sources.filter((s) => s.url !== url);
      const text = serializeSourcesFile({ version: 1, sources: [...others, next] });
      const sourcesChanged = text !== sources.text;
      if (sourcesChanged) await writeRepoFile(root, Layout.sources, text);
      for (const op of plan.ops) {
        if (op.kind === 'append') doc.append(op.entry);
        else doc.replace(op.line, op.entry);
      }
      return {
        ok: true as const,
        plan,
        files: written.files,
        sourcesChanged,
        diagnostics: [...plan.diagnostics, ...planned.diagnostics, ...written.diagnostics],
      };
    });
    if (!result.ok) return fail('unreadable', result.diagnostics, src.commit);
    const sorted = (xs: readonly string[]): string[] => [...xs].sort(compareStrings);
    return {
      ...base,
      outcome: 'pulled',
      commit: src.commit,
      added: sorted(result.plan.added),
      updated: sorted(result.plan.updated),
      unchanged: sorted(result.plan.unchanged),
      retired: sorted(result.plan.retired),
      keptLocal: sorted(result.plan.keptLocal),
      files: [...result.files].sort((a, b) => compareStrings(a.path, b.path)),
      registryChanged: changed,
      sourcesChanged: result.sourcesChanged,
      diagnostics: [...sourceDiagnostics, ...result.diagnostics],
    };
  } finally {
    src.dispose();
  }
}

export { recordLine };

export type SourceState = 'current' | 'moved' | 'not-recorded' | 'unreadable';

export interface SourceCheck {
  readonly url: string;
  readonly ref: string;
  readonly recorded: string | null;
  readonly current: string | null;
  readonly state: SourceState;
}

/**
 * `pull --check`: compares each recorded source's ref, as `git ls-remote` sees it now, with
 * the recorded commit. Writes nothing. With `source`, only that one (it must be recorded).
 */
export async function checkSources(
  root: string,
  req: { source?: string; cwd: string },
): Promise<{ checks: SourceCheck[]; diagnostics: Diagnostic[] }> {
  if (req.source !== undefined) validateRequest({ source: req.source });
  const sources = await readSources(root);
  if (!sources.ok) return { checks: [], diagnostics: sources.diagnostics };
  let records = sources.value.sources;
  const checks: SourceCheck[] = [];
  const diagnostics: Diagnostic[] = [];
  if (req.source !== undefined) {
    const url = recordedUrl(classifySource(req.source, req.cwd), root);
    records = records.filter((r) => r.url === url);
    if (records.length === 0) {
      checks.push({ url, ref: 'HEAD', recorded: null, current: null, state: 'not-recorded' });
      diagnostics.push(
        diagnostic({
          file: Layout.sources,
          ruleId: 'pull/not-recorded',
          message: `source "${url}" has never been pulled here; run \`findings pull ${url}\``,
        }),
      );
    }
  }
  for (const r of records) {
    const line = recordLine(sources.text, r.url);
    const now = await remoteCommit(sourceFromRecord(r.url, root), r.ref);
    if (!now.ok) {
      checks.push({ url: r.url, ref: r.ref, recorded: r.commit, current: null, state: 'unreadable' });
      diagnostics.push({
        ...failureDiagnostic(r.url, r.ref, now.failure),
        file: Layout.sources,
        line,
        message: `source "${r.url}" (${r.ref}) cannot be checked: ${now.failure.message}`,
      });
      continue;
    }
    const moved = now.commit !== r.commit;
    checks.push({ url: r.url, ref: r.ref, recorded: r.commit, current: now.commit, state: moved ? 'moved' : 'current' });
    if (moved) {
      diagnostics.push(
        diagnostic({
          file: Layout.sources,
          line,
          ruleId: 'pull/source-moved',
          message:
            `source "${r.url}" (${r.ref}) is at ${now.commit.slice(0, 12)}, recorded ${r.commit.slice(0, 12)}; ` +
            `run \`findings pull ${r.url}${r.ref === 'HEAD' ? '' : ` --ref ${r.ref}`}\``,
        }),
      );
    }
  }
  return { checks, diagnostics };
}
