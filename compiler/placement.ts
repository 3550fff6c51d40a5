/**
 * Which file of the constraint set an entry goes to (docs/compiler.md "The extended index"): the
 * one question "can upstream's strict loader and gate take it as it is, meaning what it means
 * here?". Yes: `.agents/constraints/index.json`, which the agentops gate reads too. No:
 * `.agents/constraints/extended.json`, which only this project reads. The compiler places every
 * entry it writes with this function, and `findings validate` reports an index.json entry it
 * would not place there (`constraint-index/not-portable`). Pure.
 */
import { isMultiLinePattern } from '../src/match/regex-syntax.js';
import { isUpstreamGlob } from '../src/match/upstream-glob.js';
import { isPortablePattern } from '../src/match/regex.js';
import type { ConstraintEntry, ConstraintOrigin } from '../src/types.js';

/** Upstream's detector modes (cli/internal/gates/checks/constraints.go applyDetector; empty is `match`). */
const UPSTREAM_MODES = new Set(['', 'match', 'present', 'forbid', 'absent', 'require', 'required']);

/**
 * Why upstream's loader or gate cannot take the entry as it is (each reason one phrase), or []
 * when it can. Only what upstream reads counts: its strict decoder (keys), `detector.kind`,
 * `mode`, `pattern` and `exclude` in Go's RE2, line by line; `applies_to.path_globs` in the
 * shapes its matchGlob knows; `applies_to.scope` is not read there, so `added-lines` would judge
 * whole files. Status does not count: an entry keeps its file when it is activated or retired.
 */
export function portabilityProblems(entry: ConstraintEntry): string[] {
  const out: string[] = [];
  const d = entry.detector;
  if (d.kind !== 'regex') out.push(`detector kind "${d.kind}" (upstream's gate enforces only regex)`);
  if (!UPSTREAM_MODES.has(d.mode ?? ''))
    out.push(`detector mode "${d.mode}" (upstream knows match, present, forbid, absent, require, required)`);
  if (d.language !== undefined || d.rule !== undefined)
    out.push("detector.language or detector.rule (keys upstream's strict decoder rejects)");
  if (d.kind === 'regex') {
    for (const [field, pattern] of [
      ['pattern', d.pattern],
      ['exclude', d.exclude],
    ] as const) {
      if (pattern === undefined || pattern === '') continue;
      if (!isPortablePattern(pattern)) out.push(`detector.${field} "${pattern}" is not in the RE2 syntax Go accepts`);
      else if (isMultiLinePattern(pattern)) out.push(`detector.${field} "${pattern}" spans lines (upstream matches line by line)`);
    }
  }
  for (const glob of entry.applies_to.path_globs) {
    if (glob.startsWith('!')) out.push(`path glob "${glob}" excludes files (upstream reads it as a path)`);
    else if (!isUpstreamGlob(glob)) out.push(`path glob "${glob}" has a shape upstream's gate rejects`);
  }
  if (entry.applies_to.scope === 'added-lines') out.push('scope "added-lines" (upstream judges whole files)');
  return out;
}

/** The file an entry belongs in: index.json when upstream can take it as it is, else extended.json. */
export function placementOf(entry: ConstraintEntry): ConstraintOrigin {
  return portabilityProblems(entry).length === 0 ? 'index' : 'extended';
}

/** The entry marked for the file it belongs in (origin absent for index.json, as the reader leaves it). */
export function placed(entry: ConstraintEntry): ConstraintEntry {
  const { origin: _origin, ...rest } = entry;
  return placementOf(entry) === 'extended' ? { ...rest, origin: 'extended' } : rest;
}
