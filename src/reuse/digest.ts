/**
 * Content digests that let a later pull tell "still as we wrote it" from "edited here"
 * (docs/reuse.md#design: a local edit survives a re-pull). Pure.
 */
import { createHash } from 'node:crypto';
import { findFence } from '../frontmatter.js';
import { stableLine } from '../json-stable.js';
import { Layout } from '../layout.js';
import { REGISTRY_KEY_ORDER, type RegistryEntry } from '../types.js';

const short = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex').slice(0, 16);

/**
 * Digest of a registry line's wording and lifecycle. Left out on purpose: `tier` (a takeover to
 * `local` is judged on its own) and the citation telemetry `hit_count` / `last_cited`
 * (docs/contracts/registry.md#lifecycle-notes: `findings cite` here is not an edit of the finding).
 */
export function entryDigest(entry: RegistryEntry): string {
  const { tier: _tier, hit_count: _hits, last_cited: _cited, ...content } = entry;
  return short(stableLine(content, REGISTRY_KEY_ORDER));
}

/** Digest of a copied file's bytes. */
export function bytesDigest(data: string | Buffer): string {
  return short(data);
}

/** Front-matter keys the compiler (`status`, `superseded_by`: carried from the registry) and pull (`tier`) write. */
const MANAGED_KEY = /^(?:status|superseded_by|tier)\s*:/;

/** Whether a copied path is a promoted artifact (`.agents/findings/<id>.md`) rather than a fixture. */
export function isArtifactPath(p: string): boolean {
  return p.startsWith(`${Layout.findingsDir}/`) && p.endsWith('.md') && !p.slice(Layout.findingsDir.length + 1).includes('/');
}

/**
 * An artifact's text with the lines the tool itself manages normalised away: the top-level
 * `status:`, `superseded_by:` and `tier:` lines of the front matter are left out, and the value
 * of the body's first `- Status:` line is cleared — exactly what `findings compile` rewrites when
 * it carries a registry lifecycle change into an artifact (compiler/promote.ts `carryLifecycle`)
 * and what pull sets. A text without a readable front matter is returned as it is. Pure.
 */
export function normalizeArtifactText(text: string): string {
  const fence = findFence(text, 'artifact');
  if (!fence.ok) return text;
  const lines = text.split('\n');
  const close = fence.fence.closeLine - 1; // index of the closing fence
  const out: string[] = [lines[0]!];
  for (let i = 1; i < close; i += 1) if (!MANAGED_KEY.test(lines[i]!)) out.push(lines[i]!);
  let statusSeen = false;
  for (let i = close; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (!statusSeen && i > close && /^- Status: /.test(line)) {
      statusSeen = true;
      out.push(`- Status:${line.endsWith('\r') ? '\r' : ''}`);
    } else out.push(line);
  }
  return out.join('\n');
}

/**
 * Digest of a copied file as "what the last pull wrote", for telling an untouched copy from a
 * local edit. For an artifact it is taken over `normalizeArtifactText`, so the lifecycle fields
 * `findings compile` carries from the registry (`status: retired`, `superseded_by: …`) and the
 * `tier` pull sets are not local edits: a copy the compiler retired is still updated when the
 * source revives the finding. Fixtures are digested byte for byte.
 */
export function copiedFileDigest(p: string, data: Buffer): string {
  if (!isArtifactPath(p)) return bytesDigest(data);
  return short(`artifact\u0000${normalizeArtifactText(data.toString('utf8').replace(/^\uFEFF/, ''))}`);
}
