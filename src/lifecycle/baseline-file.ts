/**
 * A constraint's baseline (docs/lifecycle.md, "Baseline"): the violations that existed when it was
 * recorded, in `.agents/constraints/baselines/<id>.json`, keyed by path and a hash of the violating
 * line's content (trimmed), with a count per key. Line numbers are not stored, so a baselined
 * violation stays baselined when other lines of its file move or change; one more copy of a
 * baselined line exceeds the count and counts again. The file is deterministic (sorted by path
 * then hash, fixed key order) so a pull request shows exactly what it adds or drops. Pure: the
 * gate on the commit path imports this (and node:crypto) only.
 */
import { createHash } from 'node:crypto';
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { stableStringify } from '../json-stable.js';

export const BASELINES_DIR = '.agents/constraints/baselines';
export const baselinePath = (id: string): string => `${BASELINES_DIR}/${id}.json`;

export interface BaselineEntry {
  readonly path: string;
  /** First 16 hex digits of the SHA-256 of the line's content without leading/trailing whitespace. */
  readonly line_hash: string;
  readonly count: number;
}

export interface Baseline {
  readonly version: 1;
  readonly constraint_id: string;
  readonly violations: readonly BaselineEntry[];
}

/** The key of a violating line: whitespace-trimmed, so re-indenting does not make it new. */
export function lineHash(line: string): string {
  return createHash('sha256').update(line.replace(/\r$/, '').trim(), 'utf8').digest('hex').slice(0, 16);
}

/** A violation as the baseline sees it: where, and the text of its (first) line. */
export interface BaselineHit {
  readonly path: string;
  readonly lineText: string;
}

const byPathThenHash = (a: BaselineEntry, b: BaselineEntry): number =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : a.line_hash < b.line_hash ? -1 : a.line_hash > b.line_hash ? 1 : 0;

/** The baseline recording `hits`. Pure and deterministic. */
export function buildBaseline(id: string, hits: readonly BaselineHit[]): Baseline {
  const counts = new Map<string, BaselineEntry>();
  for (const h of hits) {
    const hash = lineHash(h.lineText);
    const key = `${h.path}\0${hash}`;
    const prev = counts.get(key);
    counts.set(key, { path: h.path, line_hash: hash, count: (prev?.count ?? 0) + 1 });
  }
  return { version: 1, constraint_id: id, violations: [...counts.values()].sort(byPathThenHash) };
}

/** `baseline --prune`: each old entry kept only as far as it still occurs (count = the smaller of the two). Pure. */
export function pruneBaseline(old: Baseline, current: Baseline): { baseline: Baseline; dropped: number } {
  const now = new Map(current.violations.map((e) => [`${e.path}\0${e.line_hash}`, e.count]));
  let dropped = 0;
  const kept: BaselineEntry[] = [];
  for (const e of old.violations) {
    const count = Math.min(e.count, now.get(`${e.path}\0${e.line_hash}`) ?? 0);
    dropped += e.count - count;
    if (count > 0) kept.push({ ...e, count });
  }
  return { baseline: { ...old, violations: kept.sort(byPathThenHash) }, dropped };
}

export function serializeBaseline(b: Baseline): string {
  return stableStringify(b, ['version', 'constraint_id', 'violations', 'path', 'line_hash', 'count']);
}

/** The total number of violations a baseline allows. Pure. */
export function baselineSize(b: Baseline): { violations: number; files: number } {
  return { violations: b.violations.reduce((n, e) => n + e.count, 0), files: new Set(b.violations.map((e) => e.path)).size };
}

export type BaselineParse = { readonly ok: true; readonly baseline: Baseline } | { readonly ok: false; readonly diagnostics: Diagnostic[] };

/** Parses a baseline file; every problem names the file (rule `lifecycle/baseline-invalid`). Pure. */
export function parseBaseline(text: string, file: string): BaselineParse {
  const bad = (message: string): BaselineParse => ({
    ok: false,
    diagnostics: [diagnostic({ file, line: 1, ruleId: 'lifecycle/baseline-invalid', message })],
  });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return bad(`not JSON (${(e as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('must be an object');
  const o = raw as Record<string, unknown>;
  if (o['version'] !== 1) return bad('version must be 1');
  if (typeof o['constraint_id'] !== 'string' || o['constraint_id'] === '') return bad('constraint_id must be a non-empty string');
  if (!Array.isArray(o['violations'])) return bad('violations must be a list');
  const violations: BaselineEntry[] = [];
  for (const [i, v] of (o['violations'] as unknown[]).entries()) {
    const e = v as Record<string, unknown> | null;
    if (
      typeof e !== 'object' ||
      e === null ||
      typeof e['path'] !== 'string' ||
      typeof e['line_hash'] !== 'string' ||
      !/^[0-9a-f]{16}$/.test(e['line_hash']) ||
      !Number.isInteger(e['count']) ||
      (e['count'] as number) < 1
    ) {
      return bad(`violations[${i}] must be {path, line_hash (16 hex digits), count >= 1}`);
    }
    violations.push({ path: e['path'], line_hash: e['line_hash'], count: e['count'] as number });
  }
  return { ok: true, baseline: { version: 1, constraint_id: o['constraint_id'], violations } };
}

/**
 * Splits hits of one constraint into baselined and new. Hits are consumed in order, so with a
 * count of 2 the first two copies of a line are baselined and a third is new. Pure.
 */
export function matchBaseline<T extends BaselineHit>(baseline: Baseline, hits: readonly T[]): { baselined: T[]; fresh: T[] } {
  const remaining = new Map(baseline.violations.map((e) => [`${e.path}\0${e.line_hash}`, e.count]));
  const baselined: T[] = [];
  const fresh: T[] = [];
  for (const h of hits) {
    const key = `${h.path}\0${lineHash(h.lineText)}`;
    const left = remaining.get(key) ?? 0;
    if (left > 0) {
      remaining.set(key, left - 1);
      baselined.push(h);
    } else fresh.push(h);
  }
  return { baselined, fresh };
}
