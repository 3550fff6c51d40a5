/**
 * Replaying one constraint over history — the pure core of `findings constraint measure`.
 * Uses the gate's own engine (src/match/detector.ts, src/match/applies.ts), so a measured hit is
 * exactly what the gate would have reported on that file at that commit.
 */
import { NULL_SHA } from '../git.js';
import type { HistoryCommit } from '../git-history.js';
import { compileAppliesTo } from '../match/applies.js';
import { compileDetector, evaluate, type Matcher } from '../match/detector.js';
import type { ConstraintEntry } from '../types.js';
import type { EvaluationError, MeasuredHit } from './measurement.js';

/** git's own binary heuristic, as the gate uses it: a NUL byte in the first 8 KB. */
export function isBinary(data: Buffer): boolean {
  return data.subarray(0, 8192).includes(0);
}

/** A change whose new side is a file the constraint can be evaluated on (not deleted, not a submodule). */
function evaluable(mode: string, sha: string, status: string): boolean {
  return status !== 'D' && mode !== '160000' && mode !== '000000' && sha !== NULL_SHA;
}

export type Prepared = { readonly ok: true; readonly matcher: Matcher; readonly applies: (path: string) => boolean } | { readonly ok: false; readonly problem: string };

/** Compiles an index entry's detector and applicability. Pure. */
export function prepare(entry: ConstraintEntry): Prepared {
  const detector = compileDetector(entry.detector);
  if (!detector.ok) return { ok: false, problem: detector.problem };
  const applies = compileAppliesTo(entry.applies_to);
  if (!applies.ok) return { ok: false, problem: applies.problem };
  return { ok: true, matcher: detector.matcher, applies: applies.test };
}

/** The blob ids a replay of these constraints will read. Pure. */
export function blobsToRead(prepared: readonly Prepared[], commits: readonly HistoryCommit[]): string[] {
  const tests = prepared.flatMap((p) => (p.ok ? [p.applies] : []));
  const out = new Set<string>();
  for (const c of commits) {
    for (const ch of c.changes) {
      if (evaluable(ch.dstMode, ch.dstSha, ch.status) && tests.some((t) => t(ch.path))) out.add(ch.dstSha);
    }
  }
  return [...out];
}

export interface ReplayResult {
  readonly samples: number;
  readonly hits: MeasuredHit[];
  readonly errors: EvaluationError[];
}

type BlobVerdict = { readonly lines: readonly number[] } | { readonly error: string } | null;

/**
 * Replays one prepared constraint over the commits: for each commit, each changed file it
 * applies to (at that commit) is one sample; each distinct line with a violation is one hit
 * `<commit-prefix>:<path>:<line>`. A blob is evaluated once however many commits carry it.
 */
export function replay(
  prepared: Extract<Prepared, { ok: true }>,
  commits: readonly HistoryCommit[],
  blobs: ReadonlyMap<string, Buffer | null>,
  options: { prefixLength: number; budgetMs: number },
): ReplayResult {
  const verdicts = new Map<string, BlobVerdict>();
  const verdictOf = (sha: string): BlobVerdict => {
    let v = verdicts.get(sha);
    if (v !== undefined) return v;
    const data = blobs.get(sha) ?? null;
    if (data === null || isBinary(data)) v = null;
    else {
      const r = evaluate(prepared.matcher, data.toString('utf8'), { budgetMs: options.budgetMs, maxHits: Number.MAX_SAFE_INTEGER });
      v = r.error !== undefined ? { error: r.error } : { lines: [...new Set(r.hits.map((h) => h.line))] };
    }
    verdicts.set(sha, v);
    return v;
  };
  let samples = 0;
  const hits: MeasuredHit[] = [];
  const errors: EvaluationError[] = [];
  for (const c of commits) {
    const prefix = c.sha.slice(0, options.prefixLength);
    for (const ch of c.changes) {
      if (!evaluable(ch.dstMode, ch.dstSha, ch.status) || !prepared.applies(ch.path)) continue;
      const v = verdictOf(ch.dstSha);
      if (v === null) continue;
      samples += 1;
      if ('error' in v) {
        errors.push({ commit: c.sha, path: ch.path, message: v.error });
        continue;
      }
      for (const line of v.lines) hits.push({ id: `${prefix}:${ch.path}:${line}`, commit: c.sha, path: ch.path, line });
    }
  }
  return { samples, hits, errors };
}
