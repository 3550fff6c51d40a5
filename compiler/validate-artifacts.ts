/**
 * Artifact rules for `findings validate`: front matter (hardened gray-matter, the fast path —
 * no unified on the pre-commit path, docs/stack-pitfalls.md#9), schema naming the field, id = file name,
 * duplicate ids and dedup keys across artifacts and the registry, and `superseded_by` targets.
 */
import { diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { readFrontMatter } from '../src/frontmatter.js';
import { Layout } from '../src/layout.js';
import { readRegistry } from '../src/registry/reader.js';
import type { ValidateContext, ValidateTarget } from '../src/validate/types.js';
import { checkArtifact, findingKeyLine, idFromPath, isArtifactPath, type Finding } from './model.js';

export async function validateArtifactTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const valid: Finding[] = [];
  for (const t of targets) {
    const check = checkArtifact(t.file, readFrontMatter(t.text, t.file));
    if (check.ok) valid.push(check.finding);
    else out.push(...check.diagnostics);
  }
  const registry = await readRegistry(ctx.files);
  const registryIds = new Map<string, string>(); // id -> dedup_key
  for (const l of registry.entries) registryIds.set(l.entry.id, l.entry.dedup_key);
  const artifactIds = new Set((await ctx.files.list(Layout.findingsDir)).filter(isArtifactPath).map(idFromPath));
  for (const f of valid) artifactIds.add(f.id);

  const byId = new Map<string, Finding>();
  const byKey = new Map<string, Finding>();
  for (const f of valid) {
    const line = findingKeyLine(f, 'id');
    const seen = byId.get(f.id);
    if (seen)
      out.push(diagnostic({ file: f.path, line, ruleId: 'artifact/duplicate-id', message: `id "${f.id}" is also the id of ${seen.path}` }));
    else byId.set(f.id, f);
    const other = byKey.get(f.data.dedup_key);
    if (other) {
      out.push(
        diagnostic({
          file: f.path,
          line: findingKeyLine(f, 'dedup_key'),
          ruleId: 'artifact/duplicate-dedup-key',
          message: `dedup_key "${f.data.dedup_key}" is also the dedup_key of ${other.path}`,
        }),
      );
    } else byKey.set(f.data.dedup_key, f);
    // An artifact and its own registry line share id and dedup_key; the same id on a line with
    // another dedup_key means two different findings claim one id.
    const regKey = registryIds.get(f.id);
    if (regKey !== undefined && regKey !== f.data.dedup_key) {
      out.push(
        diagnostic({
          file: f.path,
          line,
          ruleId: 'artifact/duplicate-id',
          message: `id "${f.id}" is a registry entry with another dedup_key ("${regKey}")`,
        }),
      );
    }
    const target = f.data.superseded_by;
    if (target !== undefined) {
      const tl = findingKeyLine(f, 'superseded_by');
      if (target === f.id)
        out.push(
          diagnostic({ file: f.path, line: tl, ruleId: 'artifact/superseded-by', message: 'superseded_by names the finding itself' }),
        );
      else if (!artifactIds.has(target) && !registryIds.has(target)) {
        out.push(
          diagnostic({
            file: f.path,
            line: tl,
            ruleId: 'artifact/superseded-by',
            message: `superseded_by "${target}" is neither an artifact nor a registry entry`,
          }),
        );
      }
    }
  }
  return out;
}
