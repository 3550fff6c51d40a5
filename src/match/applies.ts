/**
 * Which files a constraint applies to: `applies_to` with picomatch globs (a superset of the
 * upstream forms; docs/hooks.md "Globs"). A glob without a `/` matches the base name at any depth
 * (`*.go` matches `cli/x/a.go`), as in lint-staged, `.gitignore` and upstream's `*.ext`.
 */
import picomatch from 'picomatch';
import { globsFrom } from '../constraints/shape.js';

export interface AppliesToSpec {
  readonly path_globs?: readonly string[] | undefined;
  /** Older artifacts' narrowing keys, read as globs (src/constraints/shape.ts globsFrom). */
  readonly path_prefixes?: readonly string[] | undefined;
  readonly extensions?: readonly string[] | undefined;
}

export type PathFilter = { readonly ok: true; readonly test: (path: string) => boolean } | { readonly ok: false; readonly problem: string };

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

function compileGlobs(globs: readonly string[]): { test: (p: string) => boolean } | { problem: string } {
  const key = JSON.stringify(globs);
  const cached = globCache.get(key);
  if (cached) return cached;
  let result: { test: (p: string) => boolean } | { problem: string };
  const never = globs.map(neverMatches).find((p) => p !== null);
  if (never) result = { problem: never };
  else {
    try {
      // strictBrackets makes picomatch reject unbalanced brackets instead of matching them literally;
      // basename makes a slash-less glob match the base name at any depth.
      for (const g of globs) picomatch.makeRe(g, { strictBrackets: true });
      // picomatch applies `basename` to every glob it is given, so only slash-less ones get it.
      const bare = globs.filter((g) => !g.includes('/'));
      const pathed = globs.filter((g) => g.includes('/'));
      const tests = [
        ...(bare.length > 0 ? [picomatch(bare, { dot: true, strictBrackets: true, basename: true })] : []),
        ...(pathed.length > 0 ? [picomatch(pathed, { dot: true, strictBrackets: true })] : []),
      ];
      result = { test: (p: string) => tests.some((t) => t(p)) };
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
export function appliesToProblem(spec: AppliesToSpec, active: boolean): string | null {
  const globs = spec.path_globs ?? [];
  if (active && globs.length === 0) return 'an active constraint has no path_globs: say which files it covers ("**" for all)';
  for (const g of globs) {
    const p = neverMatches(g);
    if (p !== null) return p;
  }
  return null;
}

/**
 * Compiles `applies_to` into a path predicate; a glob that cannot be parsed or never matches is a
 * problem (fail closed), and so is an empty glob list when `requireGlobs` (an active entry).
 */
export function compileAppliesTo(spec: AppliesToSpec, options: { readonly requireGlobs?: boolean } = {}): PathFilter {
  const legacy = spec.path_prefixes !== undefined || spec.extensions !== undefined;
  const globs = legacy ? globsFrom(spec.path_globs, spec.path_prefixes, spec.extensions) : (spec.path_globs ?? []);
  if (globs.length === 0) {
    // Prefixes and extensions that no glob satisfies: no file.
    if (legacy) return { ok: true, test: () => false };
    if (options.requireGlobs) return { ok: false, problem: appliesToProblem({ path_globs: [] }, true)! };
    return { ok: true, test: () => true };
  }
  const compiled = compileGlobs(globs);
  if ('problem' in compiled) return { ok: false, problem: compiled.problem };
  return { ok: true, test: compiled.test };
}
