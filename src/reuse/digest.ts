/**
 * Content digests that let a later pull tell "still as we wrote it" from "edited here"
 * (issue 7: a local edit survives a re-pull). Pure.
 */
import { createHash } from 'node:crypto';
import { stableLine } from '../json-stable.js';
import { REGISTRY_KEY_ORDER, type RegistryEntry } from '../types.js';

const short = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex').slice(0, 16);

/**
 * Digest of a registry line's wording and lifecycle. Left out on purpose: `tier` (a takeover to
 * `local` is judged on its own) and the citation telemetry `hit_count` / `last_cited`
 * (finding-registry.md, "Lifecycle notes": `findings cite` here is not an edit of the finding).
 */
export function entryDigest(entry: RegistryEntry): string {
  const { tier: _tier, hit_count: _hits, last_cited: _cited, ...content } = entry;
  return short(stableLine(content, REGISTRY_KEY_ORDER));
}

/** Digest of a copied file's bytes. */
export function bytesDigest(data: string | Buffer): string {
  return short(data);
}
