/**
 * Which files a pull copies besides registry lines (docs/reuse.md): for each imported mechanical
 * finding, its promoted artifact `.agents/findings/<id>.md` (with `tier` set in the front matter)
 * and the fixture files its `compiler.evidence` names. Pure: takes the source's bytes, returns
 * the files to write and diagnostics. The compiler here then makes such findings shadow-only
 * constraints (docs/contracts/compiler.md#replay-qualification: activation is per repository).
 *
 * Only fixture refs that pass `relativePathProblem` and lie under `.agents/constraints/fixtures/`
 * are copied, and only regular files (a symlink could point anywhere).
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { findFence, lineStart, readFrontMatter } from '../frontmatter.js';
import { artifactPath, Layout } from '../layout.js';
import { normalizeRelative, relativePathProblem } from '../paths.js';
import { validate } from '../schema.js';
import type { BlobEntry } from '../git/core.js';
import type { PullTier } from './sources-file.js';

export interface PlannedFile {
  readonly path: string;
  readonly bytes: Buffer;
  /** The finding the file belongs to. */
  readonly findingId: string;
}

const FIXTURE_PREFIX = `${Layout.fixturesDir}/`;
const REGULAR = new Set(['100644', '100755']);

/**
 * Sets `tier: <tier>` in an artifact's front matter with a one-line edit (the author's layout
 * is kept, so the copy diffs cleanly against the source), then re-reads the result to prove it
 * is still the same front matter apart from `tier`. Returns null when the text cannot be edited
 * safely. Pure.
 */
export function setArtifactTier(text: string, tier: PullTier, file: string): string | null {
  const fence = findFence(text, file);
  if (!fence.ok) return null;
  const yamlStart = text.indexOf('\n') + 1;
  const yamlEnd = lineStart(text, fence.fence.closeLine);
  const yaml = text.slice(yamlStart, yamlEnd);
  const eol = text.slice(0, yamlStart).endsWith('\r\n') ? '\r\n' : '\n';
  const line = `tier: ${tier}`;
  const edited = /^tier:.*$/m.test(yaml)
    ? yaml.replace(/^tier:[^\r\n]*/m, line)
    : `${yaml}${yaml === '' || yaml.endsWith('\n') ? '' : eol}${line}${eol}`;
  const out = text.slice(0, yamlStart) + edited + text.slice(yamlEnd);
  const before = readFrontMatter(text, file);
  const after = readFrontMatter(out, file);
  if (!before.ok || !after.ok || after.data['tier'] !== tier) return null;
  const strip = (d: Record<string, unknown>): string => JSON.stringify({ ...d, tier: undefined });
  return strip(before.data) === strip(after.data) ? out : null;
}

export interface ArtifactInput {
  /** Blob entries of the source tree under `.agents/findings/` and the fixtures folder. */
  readonly tree: ReadonlyMap<string, BlobEntry>;
  /** Source id → id here, for the entries this pull wrote. */
  readonly written: ReadonlyMap<string, string>;
  readonly tier: PullTier;
  /** Display prefix for source paths in diagnostics (the source url). */
  readonly sourceLabel: string;
}

/** The artifact blobs to read for a pull: one per written entry whose id is unchanged here. */
export function artifactPathsToRead(input: ArtifactInput): string[] {
  const out: string[] = [];
  for (const [sourceId, localId] of input.written) {
    if (sourceId !== localId) continue;
    const p = artifactPath(sourceId);
    if (input.tree.has(p)) out.push(p);
  }
  return out;
}

/**
 * Plans the artifact copies from the artifact bytes; returns the fixture paths still to read.
 * Advisory artifacts are not copied: the compiler promotes the pulled registry line here.
 */
export function planArtifacts(
  input: ArtifactInput,
  artifacts: ReadonlyMap<string, Buffer | null>,
): { files: PlannedFile[]; fixtures: { path: string; findingId: string }[]; diagnostics: Diagnostic[] } {
  const files: PlannedFile[] = [];
  const fixtures: { path: string; findingId: string }[] = [];
  const diagnostics: Diagnostic[] = [];
  const at = (p: string): string => `${input.sourceLabel.replace(/\/+$/, '')}/${p}`;
  for (const [p, bytes] of artifacts) {
    if (bytes === null) continue;
    const id = p.slice(Layout.findingsDir.length + 1, -'.md'.length);
    const fm = readFrontMatter(bytes, at(p));
    if (!fm.ok) {
      diagnostics.push(
        ...fm.diagnostics.map((d) => ({ ...d, severity: 'warning' as const, message: `${d.message}; artifact not copied` })),
      );
      continue;
    }
    const problems = validate('finding-artifact', fm.data);
    if (problems.length > 0) {
      diagnostics.push(
        diagnostic({
          file: at(p),
          line: 1,
          severity: 'warning',
          ruleId: 'pull/artifact-schema',
          message: `${problems.join('; ')}; artifact not copied`,
        }),
      );
      continue;
    }
    if (fm.data['id'] !== id) {
      diagnostics.push(
        diagnostic({
          file: at(p),
          line: 1,
          severity: 'warning',
          ruleId: 'pull/artifact-id',
          message: `front matter id "${String(fm.data['id'])}" differs from the file name; artifact not copied`,
        }),
      );
      continue;
    }
    if (fm.data['detectability'] !== 'mechanical') continue;
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    const edited = setArtifactTier(text, input.tier, at(p));
    if (edited === null) {
      diagnostics.push(
        diagnostic({
          file: at(p),
          line: 1,
          severity: 'warning',
          ruleId: 'pull/artifact-tier',
          message: `cannot set "tier: ${input.tier}" in the front matter safely; artifact not copied`,
        }),
      );
      continue;
    }
    files.push({ path: p, bytes: Buffer.from(edited, 'utf8'), findingId: id });
    const evidence = (fm.data['compiler'] as { evidence?: { positive_refs?: string[]; negative_control_refs?: string[] } } | undefined)
      ?.evidence;
    const refs = [...(evidence?.positive_refs ?? []), ...(evidence?.negative_control_refs ?? [])];
    for (const ref of refs) {
      const problem = relativePathProblem(ref);
      const norm = problem === null ? normalizeRelative(ref) : '';
      if (problem !== null || !norm.startsWith(FIXTURE_PREFIX)) {
        diagnostics.push(
          diagnostic({
            file: at(p),
            line: 1,
            severity: 'warning',
            ruleId: 'pull/fixture-path',
            message: `fixture ref "${ref}" ${problem ?? `is not under ${FIXTURE_PREFIX}`}; not copied`,
          }),
        );
        continue;
      }
      const blob = input.tree.get(norm);
      if (blob === undefined || !REGULAR.has(blob.mode)) {
        diagnostics.push(
          diagnostic({
            file: at(p),
            line: 1,
            severity: 'warning',
            ruleId: 'pull/fixture-missing',
            message:
              `fixture ref ` +
              `"${ref}" ${blob === undefined ? 'is not in the source tree' : 'is not a regular file (symlinks are never copied)'}; not copied`,
          }),
        );
        continue;
      }
      if (!fixtures.some((f) => f.path === norm)) fixtures.push({ path: norm, findingId: id });
    }
  }
  return { files, fixtures, diagnostics };
}
