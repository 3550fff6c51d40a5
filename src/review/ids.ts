/** Finding and event ids, and matching what a user typed against them. Pure. */
import { createHash } from 'node:crypto';
import { stableLine } from '../json-stable.js';

/** 32 lowercase hex characters from a sha256 of `parts` (deterministic: same content, same id). */
export function hashId(parts: unknown): string {
  return createHash('sha256').update(stableLine(parts)).digest('hex').slice(0, 32);
}

/** The 8-character id that `[F-xxxxxxxx]` shows. */
export const shortIdOf = (id: string): string => id.slice(0, 8);

/**
 * Normalises a user-typed id: `a1b2c3d4`, `F-a1b2c3d4`, `[F-A1B2C3D4]`, a longer prefix or the
 * full id, case-insensitive. Returns the lowercase hex part, or null when it is not an id at all.
 */
export function normalizeIdInput(input: string): string | null {
  let s = input.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1).trim();
  if (/^f-/i.test(s)) s = s.slice(2);
  s = s.toLowerCase();
  return /^[0-9a-f]{8,32}$/.test(s) ? s : null;
}

export type IdMatch =
  | { readonly kind: 'match'; readonly id: string }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'ambiguous'; readonly ids: readonly string[] };

/** Matches a typed id against full ids (prefix match, at least 8 characters). */
export function matchId(input: string, ids: readonly string[]): IdMatch {
  const prefix = normalizeIdInput(input);
  if (prefix === null) return { kind: 'invalid' };
  const hits = ids.filter((id) => id.startsWith(prefix));
  if (hits.length === 0) return { kind: 'unknown' };
  if (hits.length > 1) return { kind: 'ambiguous', ids: [...hits].sort() };
  return { kind: 'match', id: hits[0]! };
}
