/**
 * One in-memory shape for every constraint index this tool reads (docs/compiler.md, "The
 * constraint index"): what it writes now (upstream's keys, `schema_version: 1`), what the
 * agentops tooling writes, and what earlier releases wrote (`version: 1`, `c-<finding id>` ids,
 * `flags`, `path_prefixes`, `extensions`, `evidence.shadow_measurement`). Normalising on parse
 * means the gate, the stricter-of-before/after judgment and the lifecycle commands compare
 * entries of either age by the same id and the same detector. Pure.
 */
import {
  APPLIES_TO_KEYS,
  DETECTOR_KEYS,
  ENTRY_KEYS,
  EVIDENCE_KEYS,
  EXTENDED_DETECTOR_KEYS,
  LEGACY_ID_PREFIX,
  type ConstraintAppliesTo,
  type ConstraintOrigin,
  type ConstraintDetector,
  type ConstraintEntry,
  type ConstraintEvidence,
  type ConstraintIndex,
  type ShadowMeasurement,
} from '../types.js';

/** Modes under which a matching line is a violation (upstream's and this project's spellings). */
const FORBIDDEN_MODES = new Set(['', 'match', 'present', 'forbid', 'must_not_contain']);
/** Modes under which a file without a match is one violation. */
const REQUIRED_MODES = new Set(['absent', 'require', 'required', 'must_contain']);

/** The canonical mode: undefined (forbidden), `required`, or an unknown spelling kept as written (the matcher refuses it). */
export function canonicalMode(mode: string | undefined): string | undefined {
  if (mode === undefined || FORBIDDEN_MODES.has(mode)) return undefined;
  if (REQUIRED_MODES.has(mode)) return 'required';
  return mode;
}

/** True when the mode means "a file without a match is a violation". */
export const isRequiredMode = (mode: string | undefined): boolean => mode !== undefined && REQUIRED_MODES.has(mode);

/**
 * JavaScript-style flags as an inline RE2 group in front of the pattern (`i`, `m`, `s`; `u` is
 * implied by RE2), which both re2js and Go's RE2 read.
 */
export function inlineFlags(pattern: string, flags: string | undefined): string {
  const kept = ['i', 'm', 's'].filter((f) => (flags ?? '').includes(f)).join('');
  return kept === '' ? pattern : `(?${kept})${pattern}`;
}

/** Escapes picomatch's special characters in a literal path part. */
function literal(part: string): string {
  return part.replace(/[\\*?[\]{}()!+@|]/g, (c) => `\\${c}`);
}

/** Globs for a path prefix (`startsWith`, as earlier releases tested it), in picomatch's syntax. */
function prefixGlobs(prefix: string): string[] {
  const p = literal(prefix);
  return prefix.endsWith('/') ? [`${p}**`] : [`${p}*`, `${p}*/**`];
}

/**
 * The one glob of upstream's shapes (src/match/upstream-glob.ts) that means "starts with `prefix`
 * and ends with `ext`" — what earlier releases tested — or null when none does (a `*` in either).
 * Upstream's `*` crosses `/`, so `src/` + `.ts` is `src/*.ts`; a prefix alone is `src/**` (ending
 * in `/`) or `src*`; an extension alone is `*.ts`. Every character but `*` is literal there.
 */
function upstreamGlob(prefix: string, ext: string): string | null {
  if (prefix.includes('*') || ext.includes('*')) return null;
  if (ext === '') return prefix === '' ? '*' : prefix.endsWith('/') ? `${prefix}**` : `${prefix}*`;
  if (prefix === '') return ext.startsWith('.') ? `*${ext}` : `**/*${ext}`;
  return `${prefix}*${ext}`;
}

/**
 * `path_globs` from the older `path_globs` + `path_prefixes` + `extensions` (all three had to
 * hold). Prefixes and extensions combine into globs of upstream's shapes when the globs are the
 * default `**` (the common case; docs/compiler.md "Index entry"); otherwise extensions narrow
 * each glob ending in `**` or `*`, and prefixes keep the globs under them.
 */
export function globsFrom(
  globs: readonly string[] | undefined,
  prefixes: readonly string[] | undefined,
  extensions: readonly string[] | undefined,
): string[] {
  const rawExts = (extensions ?? []).map((e) => (e.startsWith('.') ? e : `.${e}`));
  const exts = rawExts.map(literal);
  const pre = prefixes ?? [];
  const base = globs && globs.length > 0 ? [...globs] : ['**'];
  if (pre.length === 0 && exts.length === 0) return globs && globs.length > 0 ? [...globs] : ['**'];
  const everything = base.length === 1 && base[0] === '**';
  if (everything) {
    const pairs = (pre.length > 0 ? pre : ['']).flatMap((p) => (rawExts.length > 0 ? rawExts : ['']).map((e) => [p, e] as const));
    const upstream = pairs.map(([p, e]) => upstreamGlob(p, e));
    if (upstream.every((g) => g !== null)) return [...new Set(upstream as string[])];
    const roots = pre.length > 0 ? pre.flatMap(prefixGlobs) : ['**'];
    if (exts.length === 0) return roots;
    // A slash-less glob matches the base name at any depth (docs/hooks.md "Globs").
    return roots.flatMap((r) => (r === '**' ? exts.map((e) => `*${e}`) : exts.map((e) => (r.endsWith('**') ? `${r}/*${e}` : `${r}${e}`))));
  }
  let out = base;
  if (pre.length > 0) out = out.filter((g) => pre.some((p) => g.startsWith(p) || p.startsWith(g.replace(/\*.*$/, ''))));
  if (exts.length > 0) {
    out = out.flatMap((g) => {
      if (exts.some((e) => g.endsWith(e))) return [g];
      if (g.endsWith('**')) return exts.map((e) => `${g}/*${e}`);
      if (g.endsWith('*')) return exts.map((e) => `${g}${e}`);
      return [];
    });
  }
  return out;
}

type Raw = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strs = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** Every repository path, in a glob shape upstream's gate accepts (`**` alone it refuses). */
export const EVERY_PATH = '**/*';

/** An applies_to of any age in the current shape. */
export function normaliseAppliesTo(raw: Raw | undefined): ConstraintAppliesTo {
  const a = raw ?? {};
  const legacy = a['path_prefixes'] !== undefined || a['extensions'] !== undefined;
  // `**` (every path) is written `**/*`, the same files in a shape upstream's gate accepts.
  const globs = (
    legacy ? globsFrom(strs(a['path_globs']), strs(a['path_prefixes']), strs(a['extensions'])) : [...(strs(a['path_globs']) ?? [])]
  ).map((g) => (g === '**' ? EVERY_PATH : g));
  const issueTypes = strs(a['issue_types']);
  const languages = strs(a['languages']);
  return {
    scope: str(a['scope']) || 'files',
    ...(issueTypes && issueTypes.length > 0 ? { issue_types: issueTypes } : {}),
    path_globs: globs,
    ...(languages && languages.length > 0 ? { languages } : {}),
  };
}

/**
 * A detector of any age in the current shape: `flags` inline, `content_pattern` + `must_*` as
 * `regex` + mode (upstream's newest gate enforces only `regex`), modes canonical.
 */
export function normaliseDetector(raw: Raw): ConstraintDetector {
  const kind = str(raw['kind']) ?? '';
  const mode = canonicalMode(str(raw['mode']));
  const pattern = inlineFlags(str(raw['pattern']) ?? '', str(raw['flags']));
  const out: ConstraintDetector = { kind: kind === 'content_pattern' ? 'regex' : kind, ...(mode !== undefined ? { mode } : {}), pattern };
  for (const k of ['exclude', 'companion', 'command', 'message', 'language'] as const) {
    const v = str(raw[k]);
    if (v) out[k] = v;
  }
  const rule = raw['rule'];
  if (typeof rule === 'object' && rule !== null && !Array.isArray(rule)) out.rule = rule as Record<string, unknown>;
  return out;
}

/** The flat activation evidence for an earlier release's `shadow_measurement`. */
export function flatEvidence(
  m: Pick<ShadowMeasurement, 'true_positives' | 'false_positives' | 'evidence_ref'>,
): Pick<ConstraintEvidence, 'precision_evidence_ref' | 'shadow_samples' | 'true_positives' | 'false_positives'> {
  return {
    precision_evidence_ref: m.evidence_ref,
    shadow_samples: m.true_positives + m.false_positives,
    true_positives: m.true_positives,
    false_positives: m.false_positives,
  };
}

export function normaliseEvidence(raw: Raw | undefined): ConstraintEvidence {
  const e = raw ?? {};
  const out: ConstraintEvidence = {};
  const pos = strs(e['positive_refs']);
  const neg = strs(e['negative_control_refs']);
  if (pos && pos.length > 0) out.positive_refs = pos;
  if (neg && neg.length > 0) out.negative_control_refs = neg;
  const legacy = e['shadow_measurement'] as ShadowMeasurement | undefined;
  if (legacy !== undefined) return { ...out, ...flatEvidence(legacy) };
  const ref = str(e['precision_evidence_ref']);
  if (ref) out.precision_evidence_ref = ref;
  for (const k of ['shadow_samples', 'true_positives', 'false_positives'] as const) {
    const v = num(e[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The id an earlier release gave a finding's constraint, or null when the id is not of that form. */
export function legacyIdTarget(id: string): string | null {
  return id.startsWith(LEGACY_ID_PREFIX) && id.length > LEGACY_ID_PREFIX.length ? id.slice(LEGACY_ID_PREFIX.length) : null;
}

const enforcementOf = (status: string): ConstraintEntry['enforcement_mode'] =>
  status === 'active' ? 'block' : status === 'shadow' ? 'warn' : 'off';

/** One entry (already schema-checked) of any age in the current in-memory shape. */
export function normaliseEntry(raw: Raw): ConstraintEntry {
  const rawId = str(raw['id']) ?? '';
  const findingId = str(raw['finding_id']) || rawId;
  // Earlier releases wrote `c-<finding id>`; the id is now the finding id (as upstream).
  const id = rawId === `${LEGACY_ID_PREFIX}${findingId}` ? findingId : rawId;
  const status = (str(raw['status']) ?? 'shadow') as ConstraintEntry['status'];
  const mode = str(raw['enforcement_mode']);
  const entry: ConstraintEntry = {
    id,
    finding_id: findingId,
    title: str(raw['title']) ?? '',
    source: str(raw['source']) ?? 'finding',
    source_artifact: str(raw['source_artifact']) ?? '',
    status,
    // Upstream leaves enforcement_mode out for draft and retired entries.
    enforcement_mode: (mode || enforcementOf(status)) as ConstraintEntry['enforcement_mode'],
    compiled_at: str(raw['compiled_at']) ?? '',
    applies_to: normaliseAppliesTo(raw['applies_to'] as Raw | undefined),
    detector: normaliseDetector((raw['detector'] as Raw | undefined) ?? {}),
    evidence: normaliseEvidence(raw['evidence'] as Raw | undefined),
    file: str(raw['file']) ?? '',
  };
  const sourceType = str(raw['source_type']);
  if (sourceType) entry.source_type = sourceType;
  const targets = strs(raw['compiler_targets']);
  if (targets && targets.length > 0) entry.compiler_targets = targets;
  const detectability = str(raw['detectability']);
  if (detectability) entry.detectability = detectability;
  const review = str(raw['review_file']);
  if (review) entry.review_file = review;
  const checklist = str(raw['checklist_item']);
  if (checklist) entry.checklist_item = checklist;
  const tier = str(raw['tier']);
  if (tier) entry.tier = tier as ConstraintEntry['tier'] & string;
  return entry;
}

/** An index of any age (already schema-checked) in the current in-memory shape; `origin` marks extended.json's entries. */
export function normaliseIndex(raw: Raw, origin: ConstraintOrigin = 'index'): ConstraintIndex {
  const list = Array.isArray(raw['constraints']) ? (raw['constraints'] as Raw[]) : [];
  const constraints = list.map(normaliseEntry);
  if (origin === 'extended') for (const c of constraints) c.origin = 'extended';
  return { schema_version: 1, constraints };
}

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of `obj` without its null-valued keys. */
function withoutNulls(obj: Raw): Raw {
  const out: Raw = {};
  for (const [k, v] of Object.entries(obj)) if (v !== null) out[k] = v;
  return out;
}

/**
 * Go's reading of `null`, before the schema looks (docs/compiler.md "Sharing the index"): Go's
 * encoding/json writes an empty or unset list as `null` (`"positive_refs": null`), and decoding
 * `null` into a field leaves its zero value. So a null at the top, in an entry, or in its
 * `applies_to`, `detector` or `evidence` reads as the key being absent, and `"constraints": null`
 * as no entries. Inner values (a structural detector's `rule`) are kept as written. Pure.
 */
export function readGoNulls(raw: unknown): unknown {
  // An earlier release's index (top-level `version`) was never written by Go: its own nulls stand.
  if (!isObject(raw) || isLegacyIndex(raw)) return raw;
  const top = withoutNulls(raw);
  if (raw['constraints'] === null) top['constraints'] = [];
  if (!Array.isArray(top['constraints'])) return top;
  top['constraints'] = (top['constraints'] as unknown[]).map((entry) => {
    if (!isObject(entry)) return entry;
    const e = withoutNulls(entry);
    for (const k of ['applies_to', 'detector', 'evidence']) if (isObject(e[k])) e[k] = withoutNulls(e[k] as Raw);
    return e;
  });
  return top;
}

/** True when the text was written by an earlier release (top-level `version`). */
export const isLegacyIndex = (raw: Raw): boolean => raw['version'] !== undefined;

function pick(obj: object, keys: readonly string[], always: readonly string[] = []): Raw {
  const src = obj as Raw;
  const out: Raw = {};
  for (const k of keys) {
    const v = src[k];
    const empty =
      v === undefined ||
      v === null ||
      v === '' ||
      (Array.isArray(v) && v.length === 0) ||
      (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
    if (!empty) out[k] = v;
    else if (always.includes(k)) out[k] = typeof v === 'string' || v === undefined || v === null ? '' : v;
  }
  return out;
}

/**
 * The entry as upstream's strict decoder accepts it: only its keys, in its order; `id`, `title`,
 * `source`, `status`, `compiled_at` and `file` always (`""` when empty), the rest left out when
 * empty.
 */
export function writtenEntry(e: ConstraintEntry): Raw {
  const nested: Raw = {
    ...e,
    applies_to: pick(e.applies_to, APPLIES_TO_KEYS),
    // The extended index keeps a structural detector's own keys; index.json has only upstream's.
    detector: pick(e.detector, e.origin === 'extended' ? EXTENDED_DETECTOR_KEYS : DETECTOR_KEYS),
    evidence: pick(e.evidence, EVIDENCE_KEYS),
  };
  return pick(nested, ENTRY_KEYS, ['id', 'title', 'source', 'status', 'compiled_at', 'file']);
}
