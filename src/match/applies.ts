/** Which files a constraint applies to: `applies_to` with picomatch globs (a superset of the upstream forms). */
import picomatch from 'picomatch';

export interface AppliesToSpec {
  readonly path_globs?: readonly string[] | undefined;
  readonly path_prefixes?: readonly string[] | undefined;
  readonly extensions?: readonly string[] | undefined;
}

export type PathFilter = { readonly ok: true; readonly test: (path: string) => boolean } | { readonly ok: false; readonly problem: string };

// Many constraints share the same globs (`src/**/*.ts`); compiling one takes ~0.1 ms, so a
// process compiles each distinct glob list once.
const globCache = new Map<string, { test: (p: string) => boolean } | { problem: string }>();

function compileGlobs(globs: readonly string[]): { test: (p: string) => boolean } | { problem: string } {
  const key = JSON.stringify(globs);
  const cached = globCache.get(key);
  if (cached) return cached;
  let result: { test: (p: string) => boolean } | { problem: string };
  if (globs.some((g) => g.trim() === '')) result = { problem: 'an empty path glob' };
  else {
    try {
      // strictBrackets makes picomatch reject unbalanced brackets instead of matching them literally.
      for (const g of globs) picomatch.makeRe(g, { strictBrackets: true });
      result = { test: picomatch([...globs], { dot: true, strictBrackets: true }) };
    } catch (error) {
      result = { problem: `path glob cannot be parsed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  globCache.set(key, result);
  return result;
}

/** Compiles `applies_to` into a path predicate; a glob that cannot be parsed is a problem (fail closed). */
export function compileAppliesTo(spec: AppliesToSpec): PathFilter {
  const globs = spec.path_globs ?? [];
  let globTest: (p: string) => boolean = () => true;
  if (globs.length > 0) {
    const compiled = compileGlobs(globs);
    if ('problem' in compiled) return { ok: false, problem: compiled.problem };
    globTest = compiled.test;
  }
  const prefixes = spec.path_prefixes ?? [];
  const exts = (spec.extensions ?? []).map((e) => (e.startsWith('.') ? e : `.${e}`));
  return {
    ok: true,
    test: (p) =>
      globTest(p) && (prefixes.length === 0 || prefixes.some((x) => p.startsWith(x))) && (exts.length === 0 || exts.some((x) => p.endsWith(x))),
  };
}
