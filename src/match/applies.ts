/** Which files a constraint applies to: `applies_to` with picomatch globs (a superset of the upstream forms). */
import picomatch from 'picomatch';

export interface AppliesToSpec {
  readonly path_globs?: readonly string[] | undefined;
  readonly path_prefixes?: readonly string[] | undefined;
  readonly extensions?: readonly string[] | undefined;
}

export type PathFilter = { readonly ok: true; readonly test: (path: string) => boolean } | { readonly ok: false; readonly problem: string };

/** Compiles `applies_to` into a path predicate; a glob that cannot be parsed is a problem (fail closed). */
export function compileAppliesTo(spec: AppliesToSpec): PathFilter {
  const globs = spec.path_globs ?? [];
  let globTest: (p: string) => boolean = () => true;
  if (globs.length > 0) {
    try {
      for (const g of globs) {
        if (g.trim() === '') return { ok: false, problem: 'an empty path glob' };
        // strictBrackets makes picomatch reject unbalanced brackets instead of matching them literally.
        picomatch.makeRe(g, { strictBrackets: true });
      }
      globTest = picomatch([...globs], { dot: true, strictBrackets: true });
    } catch (error) {
      return { ok: false, problem: `path glob cannot be parsed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const prefixes = spec.path_prefixes ?? [];
  const exts = (spec.extensions ?? []).map((e) => (e.startsWith('.') ? e : `.${e}`));
  return {
    ok: true,
    test: (p) =>
      globTest(p) && (prefixes.length === 0 || prefixes.some((x) => p.startsWith(x))) && (exts.length === 0 || exts.some((x) => p.endsWith(x))),
  };
}
