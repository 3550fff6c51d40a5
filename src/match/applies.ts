/**
 * Which files a constraint applies to: `applies_to.path_globs` (docs/hooks.md "Globs"). A glob of
 * one of upstream's shapes means exactly what upstream's gate means by it (src/match/upstream-glob.ts:
 * `Makefile` is the top-level file, `*.go` any path ending in `.go`, `cli/*.go` any path under
 * `cli/` ending in `.go`, brackets and parentheses are path characters). Any other shape is this
 * project's extension, a picomatch glob (`src/**\/*.ts`; one without a `/` matches the base name
 * at any depth), and lives in the extended index. In the extended index a glob starting with `!`
 * excludes what the rest of it matches, as in `.gitignore`: the last glob that matches a path
 * decides; in index.json it is a path like any other, as upstream reads it.
 */
import picomatch from 'picomatch';
import { globsFrom } from '../constraints/shape.js';
import type { ConstraintEntry } from '../types.js';
import { isUpstreamGlob, matchUpstreamGlob } from './upstream-glob.js';

export interface AppliesToSpec {
  readonly path_globs?: readonly string[] | undefined;
  /** Older artifacts' narrowing keys, read as globs (src/constraints/shape.ts globsFrom). */
  readonly path_prefixes?: readonly string[] | undefined;
  readonly extensions?: readonly string[] | undefined;
}

export type PathFilter = { readonly ok: true; readonly test: (path: string) => boolean } | { readonly ok: false; readonly problem: string };

export interface AppliesToOptions {
  /** An active entry must name its files: no glob is a problem, not "every file". */
  readonly requireGlobs?: boolean;
  /** `!glob` excludes (the extended index, and artifacts, which compile to it); otherwise it is a path, as upstream reads it. */
  readonly exclusions?: boolean;
}

// Many constraints share the same globs (`src/**/*.ts`); compiling one takes ~0.1 ms, so a
// process compiles each distinct glob list once.
const globCache = new Map<string, { test: (p: string) => boolean } | { problem: string }>();

/** Why a glob can never match a repository path (paths are relative, name files, never end in `/`), or null. Pure. */
export function neverMatches(glob: string): string | null {
  if (glob.trim() === '') return 'an empty path glob matches no file';
  if (glob.startsWith('/'))
    return `path glob "${glob}" starts with "/", but paths are relative to the repository root, so it matches no file`;
  if (glob.endsWith('/')) return `path glob "${glob}" ends with "/", so it matches no file (write "${glob}**" for everything under it)`;
  return null;
}

/** One glob's test: upstream's meaning for its shapes, picomatch's for the rest (which may throw on a bad glob). */
function globTest(glob: string): (p: string) => boolean {
  if (isUpstreamGlob(glob)) return (p) => matchUpstreamGlob(glob, p);
  // strictBrackets makes picomatch reject unbalanced brackets instead of matching them literally;
  // basename makes a slash-less glob match the base name at any depth.
  picomatch.makeRe(glob, { strictBrackets: true });
  return picomatch(glob, { dot: true, strictBrackets: true, basename: !glob.includes('/') });
}

function compileGlobs(globs: readonly string[], exclusions: boolean): { test: (p: string) => boolean } | { problem: string } {
  const key = `${exclusions ? '!' : ''}${JSON.stringify(globs)}`;
  const cached = globCache.get(key);
  if (cached) return cached;
  let result: { test: (p: string) => boolean } | { problem: string };
  const parts = globs.map((g) => (exclusions && g.startsWith('!') ? { glob: g.slice(1), exclude: true } : { glob: g, exclude: false }));
  const never = parts.map((p) => neverMatches(p.glob)).find((p) => p !== null);
  if (never) result = { problem: never };
  else if (parts.every((p) => p.exclude)) result = { problem: 'path globs that only exclude ("!…") match no file: name the files first' };
  else {
    try {
      const tests = parts.map((p) => ({ test: globTest(p.glob), exclude: p.exclude }));
      result = parts.some((p) => p.exclude)
        ? {
            // As in .gitignore: the last glob that matches a path decides.
            test: (path: string) => {
              for (let i = tests.length - 1; i >= 0; i -= 1) if (tests[i]!.test(path)) return !tests[i]!.exclude;
              return false;
            },
          }
        : { test: (path: string) => tests.some((t) => t.test(path)) };
    } catch (error) {
      result = { problem: `path glob cannot be parsed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  globCache.set(key, result);
  return result;
}

/**
 * Why an index entry's applicability is unusable, or null: a glob that can never match, or (for
 * an active entry) no glob at all — neither may silently mean "every file" or "no file". Pure.
 */
export function appliesToProblem(spec: AppliesToSpec, active: boolean, options: Pick<AppliesToOptions, 'exclusions'> = {}): string | null {
  const globs = spec.path_globs ?? [];
  if (active && globs.length === 0) return 'an active constraint has no path_globs: say which files it covers ("**" for all)';
  for (const g of globs) {
    const p = neverMatches(options.exclusions && g.startsWith('!') ? g.slice(1) : g);
    if (p !== null) return p;
  }
  if (options.exclusions && globs.length > 0 && globs.every((g) => g.startsWith('!')))
    return 'path globs that only exclude ("!…") match no file: name the files first';
  return null;
}

/**
 * Compiles `applies_to` into a path predicate; a glob that cannot be parsed or never matches is a
 * problem (fail closed), and so is an empty glob list when `requireGlobs` (an active entry).
 */
export function compileAppliesTo(spec: AppliesToSpec, options: AppliesToOptions = {}): PathFilter {
  const legacy = spec.path_prefixes !== undefined || spec.extensions !== undefined;
  const globs = legacy ? globsFrom(spec.path_globs, spec.path_prefixes, spec.extensions) : (spec.path_globs ?? []);
  if (globs.length === 0) {
    // Prefixes and extensions that no glob satisfies: no file.
    if (legacy) return { ok: true, test: () => false };
    if (options.requireGlobs) return { ok: false, problem: appliesToProblem({ path_globs: [] }, true)! };
    return { ok: true, test: () => true };
  }
  const compiled = compileGlobs(globs, options.exclusions === true);
  if ('problem' in compiled) return { ok: false, problem: compiled.problem };
  return { ok: true, test: compiled.test };
}

/** An index entry's file filter: `!` excludes only in the extended index; an active entry must name its files. */
export function entryPathFilter(
  c: Pick<ConstraintEntry, 'applies_to' | 'status' | 'origin'>,
  options: { readonly requireGlobs?: boolean } = {},
): PathFilter {
  return compileAppliesTo(c.applies_to, {
    requireGlobs: options.requireGlobs ?? c.status === 'active',
    exclusions: c.origin === 'extended',
  });
}
