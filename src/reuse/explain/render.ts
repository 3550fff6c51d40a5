/** Renders an explain chain: stylish text for people, stable JSON for tools (docs/reuse.md). Pure. */
import { formatRatio } from '../../lifecycle/activate.js';
import { formatInterval } from '../../lifecycle/wilson.js';
import { EXPLAIN_SHAPE, type ExplainChain, type KeyShape } from './types.js';

const at = (file: string, line: number): string => (line > 0 ? `${file}:${line}` : file);
// The same notation as `findings constraint label/activate` (floored, so 0.9499 never reads 0.95).
const pct = (p: number | null): string => (p === null ? 'not measured (no labelled hits)' : formatRatio(p));

/** Counts explain shows beside a constraint (docs/hooks.md): inline markers at HEAD and baselined violations. */
export interface ConstraintExtras {
  readonly suppressions?: { readonly markers: number; readonly without_reason: number; readonly files: number };
  readonly baseline?: { readonly file: string; readonly violations: number; readonly files: number } | null;
}

/** The chain as lines, one link per heading, each ending with `file:line`. */
export function renderExplainText(c: ExplainChain, extras: ConstraintExtras = {}): string {
  const out: string[] = [`explain ${c.query} (${c.matched ?? 'unknown'})`];
  const head = (kind: string, name: string, file: string, line: number): void => {
    out.push(`${kind.padEnd(11)} ${name}  ${at(file, line)}`);
  };
  if (c.constraint) {
    const k = c.constraint;
    head('constraint', k.id, k.file, k.line);
    out.push(`  status ${k.status}, enforcement ${k.enforcement_mode}${k.tier ? `, tier ${k.tier}` : ''} — ${k.title}`);
    const m = k.measurement;
    if (m === null) out.push('  no measurement yet (findings constraint measure)');
    else {
      out.push(
        `  measured precision ${pct(m.precision)}: ${m.true_positives} true / ${m.false_positives} false positives of ${m.labelled} ` +
          `labelled${m.precision === null ? '' : ` (${formatInterval(m.true_positives, m.labelled)})`},` +
          ` ${m.hits} hits in ${m.samples} samples at ${m.measured_at_commit.slice(0, 12)}  ${at(m.file, m.line)}`,
      );
      for (const h of m.labelled_hits)
        out.push(`    ${h.label.padEnd(14)} ${h.at.path}:${h.at.line} @ ${h.at.commit.slice(0, 12)}  ${at(h.file, h.line)}`);
      const p = m.comments_prevented;
      if (p !== undefined) {
        out.push(`  comments prevented: ${p.count} imported review comment(s) it would have caught at commit time`);
        for (const c of p.comments) out.push(`    ${c.task} ${c.url ?? `F-${c.finding_id.slice(0, 8)}`} (hit ${c.hit})`);
      }
    }
    const s = extras.suppressions;
    if (s)
      out.push(
        `  inline suppressions at HEAD: ${s.markers} in ${s.files} ` +
          `file(s)${s.without_reason > 0 ? `, ${s.without_reason} without a reason (they suppress nothing)` : ''}`,
      );
    const b = extras.baseline;
    if (b) out.push(`  baseline: ${b.violations} violation(s) in ${b.files} file(s)  ${b.file}`);
  }
  if (c.artifact) {
    const a = c.artifact;
    head('artifact', a.id, a.file, a.line);
    out.push(`  status ${a.status ?? '?'}, ${a.detectability ?? '?'}${a.tier ? `, tier ${a.tier}` : ''}${a.title ? ` — ${a.title}` : ''}`);
  }
  if (c.registry) {
    const r = c.registry;
    head('registry', r.id, r.file, r.line);
    out.push(
      `  tier ${r.tier}, status ${r.status}${r.superseded_by ? ` (superseded by ${r.superseded_by})` : ''},` +
        ` date ${r.date}, hit_count ${r.hit_count}, last cited ${r.last_cited ?? 'never'}`,
    );
    out.push(`  source: repo ${r.source.repo}, session ${r.source.session}, file ${r.source.file}, skill ${r.source.skill}`);
  }
  if (c.pulled_from) {
    const p = c.pulled_from;
    head('pulled from', p.url, p.file, p.line);
    out.push(`  at commit ${p.commit} (${p.ref}), tier ${p.tier}`);
  }
  if (c.candidate) {
    const k = c.candidate;
    head('candidate', k.class_key, k.file, k.line);
    out.push(`  advisory; recurred in ${k.recurrence_count} objectives${k.derived ? ' (derived class)' : ''}`);
  }
  for (const r of c.review_findings) {
    head('review', `[F-${r.short_id}] task ${r.task}, round ${r.round}, ${r.origin}`, r.file, r.line);
    const where = r.at ? `${r.at.file}${r.at.line !== null ? `:${r.at.line}` : ''}` : '—';
    out.push(
      `  ${r.severity}, ${r.status}${r.evidence_ref ? ', cited by the candidate' : ''}: ${where} ` +
        `— ${r.expected} → ${r.actual}${r.fix ? ` → ${r.fix}` : ''}`,
    );
    if (r.source !== undefined)
      out.push(`  imported from ${r.source.url ?? r.source.thread} (by ${r.source.author ?? 'unknown'}, ${r.source.created_at})`);
  }
  for (const t of c.tasks) {
    head('task', t.task, t.file, t.line);
    out.push(`  objective ${t.objective}; rounds ${t.rounds.join(', ')}; origins ${t.origins.join(', ')}`);
  }
  if (c.matched !== null && !c.constraint && !c.artifact && !c.registry && !c.candidate && c.review_findings.length === 0)
    out.push('  (no further links)');
  return `${out.join('\n')}\n`;
}

/**
 * `value` with each object's keys in its shape's order (keys the shape does not name follow in
 * code-unit order; `undefined` values are left out). Lists keep their order.
 */
function ordered(value: unknown, shape: KeyShape | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => ordered(v, shape));
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Record<string, unknown>;
  const named = shape?.keys ?? [];
  const rest = Object.keys(obj)
    .filter((k) => !named.includes(k))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of [...named, ...rest]) {
    if (Object.hasOwn(obj, k) && obj[k] !== undefined) out[k] = ordered(obj[k], shape?.nested?.[k]);
  }
  return out;
}

/** The stable JSON document (each object in its documented key order, 2-space indent, final newline). */
export function renderExplainJson(c: ExplainChain, extras: ConstraintExtras = {}): string {
  // The counts join the constraint object after its documented keys (code-unit order).
  const withExtras =
    c.constraint === null
      ? c
      : {
          ...c,
          constraint: {
            ...c.constraint,
            ...(extras.suppressions ? { suppressions: extras.suppressions } : {}),
            ...(extras.baseline !== undefined ? { baseline: extras.baseline } : {}),
          },
        };
  return `${JSON.stringify(ordered(withExtras, EXPLAIN_SHAPE), null, 2)}\n`;
}
