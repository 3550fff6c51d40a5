/**
 * The one matching engine's entry point, shared by the compiler's replay qualification, the
 * commit gate, baselines and history measurement, so all agree: the detector-kind registry
 * (src/match/kind.ts is the contract), `compileDetector`, `evaluate`, and the prefilter that
 * tells in one pass per file which detectors can match at all. Kinds are loaded lazily
 * (`loadDetectorKinds`); the regex kind (src/match/regex.ts) is built in.
 */
import type { RE2Set } from 're2js';
import { re2js } from './re2.js';
import { LiteralTable, literalScanner, possible, type LiteralTree } from './literals.js';
import type { CompileResult, DetectorKind, DetectorSpec, EvaluateOptions, Evaluation, Matcher } from './kind.js';
import { flagGroup, re2Bits, regexKind, regexParts, type RegexMatcher } from './regex.js';

export type { CompileResult, DetectorKind, DetectorSpec, EvaluateOptions, Evaluation, Hit, Matcher } from './kind.js';
export { patternProblem, splitInlineFlags } from './regex.js';

/**
 * Kinds beyond the built-in regex, each imported on first use (src/match/kind.ts). A kind is
 * added here as `name: () => import('./<kind>/index.js').then((m) => m.<kind>Kind)`.
 */
const LOADERS: Readonly<Record<string, () => Promise<DetectorKind>>> = {};

const loaded = new Map<string, DetectorKind>(regexKind.names.map((n) => [n, regexKind]));

/** True when `kind` is a detector kind this project can enforce (loaded or loadable). */
export const isEnforceableKind = (kind: string): boolean => loaded.has(kind) || Object.hasOwn(LOADERS, kind);

/**
 * Loads the modules of the given kinds that are not loaded yet (unknown names are left for
 * compileDetector to refuse). Callers await it before compiling detectors of those kinds.
 */
export async function loadDetectorKinds(kinds: Iterable<string>): Promise<void> {
  for (const name of new Set(kinds)) {
    if (loaded.has(name) || !Object.hasOwn(LOADERS, name)) continue;
    const kind = await LOADERS[name]!();
    for (const n of kind.names) loaded.set(n, kind);
  }
}

/** The detector kinds a list of index entries (or specs) uses. */
export function kindsOf(items: Iterable<{ readonly detector: { readonly kind: string } } | DetectorSpec>): Set<string> {
  const out = new Set<string>();
  for (const item of items) out.add('detector' in item ? item.detector.kind : (item as DetectorSpec).kind);
  return out;
}

/**
 * Compiles a detector of any kind. A kind this project does not enforce (`paired_files`,
 * `restricted_command`, an unknown name) is a problem, not an error. A kind that exists but was
 * not loaded (loadDetectorKinds) is a caller's bug, and throws.
 */
export function compileDetector(spec: DetectorSpec): CompileResult {
  const kind = loaded.get(spec.kind);
  if (kind !== undefined) return kind.compile(spec);
  if (Object.hasOwn(LOADERS, spec.kind)) throw new Error(`detector kind "${spec.kind}" was not loaded before use (loadDetectorKinds)`);
  return { ok: false, problem: `detector kind "${spec.kind}" is not enforceable (advisory only)` };
}

/**
 * Evaluates a matcher over a file's text and returns violations as hits. For `match` and
 * `must_not_contain`, every match is a hit; for `must_contain`, a file without a match is one
 * hit at 1:1 (the violation is the absence).
 */
export function evaluate(matcher: Matcher, text: string, options: EvaluateOptions = {}): Evaluation {
  return matcher.evaluate(text, options);
}

/** True when the matcher reports at least one violation in the text. */
export function violates(matcher: Matcher, text: string, options: EvaluateOptions = {}): boolean {
  const r = evaluate(matcher, text, { ...options, maxHits: 1 });
  return r.hits.length > 0;
}

/** Matchers with a larger compiled program stay out of the prefilter (see buildPrefilter). */
export const PREFILTER_MAX_PROGRAM = 200;

/** True when the matcher's program has more than `size` instructions; a plain pattern's bound may tell without compiling it. */
export function programSizeAbove(m: RegexMatcher, size: number): boolean {
  if (m.plain !== undefined && m.plain.programSizeBound <= size) return false;
  return m.re2.programSize() > size;
}

/** Which matchers' patterns occur somewhere in a text, found in one linear pass per flag set. */
export interface Prefilter {
  /** The matchers whose pattern matches somewhere in `text` (a superset is always safe). */
  matching(text: string): ReadonlySet<Matcher>;
  /**
   * What the prefilter knows for sure about `text`: the matchers whose pattern occurs, and the
   * ones it could not decide (no set, a set that failed, a large program) — those must be
   * evaluated whatever their mode (a `must_contain` with an unknown answer is not "satisfied").
   * Every other matcher's pattern does not occur.
   */
  decide(text: string): { readonly occurring: ReadonlySet<Matcher>; readonly undecided: ReadonlySet<Matcher> };
}

/**
 * Builds a prefilter over many matchers, in two steps per text. First the required literals
 * (src/match/literals.ts): one linear pass finds which literals occur, and a matcher whose literal
 * condition fails cannot match (re2js itself would refuse to search that text). Then, only for
 * flag sets with a matcher still possible, one re2js RE2Set per flag combination, so a file costs
 * one linear scan per combination instead of one per constraint. A set that cannot be built or
 * run decides none of its members, so callers simply evaluate them.
 */
export function buildPrefilter(matchers: readonly Matcher[]): Prefilter {
  const groups = new Map<string, RegexMatcher[]>();
  // A large program makes the set's DFA build a state per character on a long line (a 1 MB line
  // and `[a-z]{1000}[0-9]`: seconds, with no budget to stop it): such matchers stay undecided,
  // so each runs under its own bounded evaluation instead.
  // Only regex detectors join a set; another kind is decided by its literals or evaluated.
  const undecided: Matcher[] = [];
  for (const m of matchers) {
    const rx = regexParts(m);
    if (rx === null || programSizeAbove(rx, PREFILTER_MAX_PROGRAM)) {
      undecided.push(m);
      continue;
    }
    const group = flagGroup(rx);
    groups.set(group, [...(groups.get(group) ?? []), rx]);
  }
  // A set is built the first time a text needs it: when every text lacks its members' literals,
  // it never is. One that cannot be built decides none of its members, from then on.
  const staticUndecided = new Set<Matcher>(undecided);
  const sets = [...groups.values()].map((members) => ({ members, set: undefined as RE2Set | null | undefined }));
  const built = (g: (typeof sets)[number]): RE2Set | null => {
    if (g.set === undefined) {
      try {
        const { RE2Set } = re2js();
        const first = g.members[0]!;
        const set = new RE2Set(RE2Set.UNANCHORED, re2Bits(first.source, first.flags));
        for (const m of g.members) set.add(m.source);
        set.compile();
        g.set = set;
      } catch {
        g.set = null;
        for (const m of g.members) staticUndecided.add(m);
      }
    }
    return g.set;
  };
  const screen = literalScreen(matchers);
  // A set whose members all have required literals is skipped outright when a text has none of its literals.
  const screened = sets.map(({ members }) => screen !== null && members.every((m) => screen.screens(m)));
  const none: ReadonlySet<Matcher> = new Set<Matcher>();
  const nothing = { occurring: none, undecided: none };
  const decide = (text: string): { occurring: ReadonlySet<Matcher>; undecided: ReadonlySet<Matcher> } => {
    const found = screen === null ? -1 : screen.scan(text);
    const absent = screen === null ? null : screen.absent;
    let occurring: Set<Matcher> | null = null;
    let unsure: Set<Matcher> | null = null;
    for (const [g, group] of sets.entries()) {
      const { members } = group;
      // Every member ruled out by its literals: the set has nothing to tell.
      if (absent !== null && ((found === 0 && screened[g]) || members.every(absent))) continue;
      const set = built(group);
      if (set === null) {
        unsure ??= new Set(staticUndecided);
        for (const m of members) unsure.add(m);
        continue;
      }
      let ids: number[] | null = null;
      try {
        ids = set.match(text);
      } catch {
        ids = null;
      }
      if (ids === null) {
        unsure ??= new Set(staticUndecided);
        for (const m of members) unsure.add(m);
      } else for (const id of ids) (occurring ??= new Set()).add(members[id]!);
    }
    let left: ReadonlySet<Matcher> = unsure ?? staticUndecided;
    if (absent !== null) {
      // A matcher whose literals are absent does not occur: known for sure, whatever else said so.
      if (occurring !== null) for (const m of occurring) if (absent(m)) occurring.delete(m);
      if ([...left].some(absent)) left = new Set([...left].filter((m) => !absent(m)));
    }
    if ((occurring === null || occurring.size === 0) && left.size === 0) return nothing;
    return { occurring: occurring ?? none, undecided: left.size === 0 ? none : left };
  };
  return {
    decide,
    matching(text) {
      const { occurring, undecided: unknown } = decide(text);
      return new Set([...occurring, ...unknown]);
    },
  };
}

/**
 * The literal screen over matchers (src/match/literals.ts): `scan(text)` returns how many literals
 * occur in the text; until the next scan, `absent(m)` is true for a matcher whose required
 * literals the text lacks. `screens(m)`: the matcher has required literals. Null when none has.
 */
function literalScreen(
  matchers: readonly Matcher[],
): { scan(text: string): number; absent(m: Matcher): boolean; screens(m: Matcher): boolean } | null {
  const table = new LiteralTable();
  const trees = new Map<Matcher, LiteralTree>();
  for (const m of matchers) {
    if (trees.has(m)) continue;
    const tree = m.requiredLiterals(table);
    if (tree !== null) trees.set(m, tree);
  }
  const scanner = literalScanner(table.literals);
  if (scanner === null) return null;
  return {
    scan: (text) => scanner.scan(text),
    absent(m) {
      const tree = trees.get(m);
      return tree !== undefined && !possible(tree, scanner.present, scanner.stamp);
    },
    screens: (m) => trees.has(m),
  };
}
