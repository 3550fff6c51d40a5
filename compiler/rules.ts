/**
 * The advisory outputs (docs/contracts/compiler.md#targets): `.agents/planning-rules/<id>.md` and
 * `.agents/pre-mortem-checks/<id>.md`, rendered from templates/, and which bytes each output
 * keeps when a file of the same meaning is already there (docs/compiler.md "Sharing `.agents/`
 * with the agentops tooling"). Pure.
 */
import { planningRulePath, preMortemCheckPath } from '../src/layout.js';
import type { Finding } from './model.js';
import { inlineText, renderTemplate, template, yamlValue } from './render.js';
import { sameRuleMeaning } from './upstream-rule.js';

/**
 * The folder the newer agentops compiler writes pre-mortem checks to. This compiler reads it but
 * writes `.agents/pre-mortem-checks/` (Layout.preMortemChecksDir): see docs/compiler.md.
 */
export const UPSTREAM_PRE_MORTEM_CHECKS_DIR = '.agents/premortem-checks';

export const upstreamPreMortemCheckPath = (id: string): string => `${UPSTREAM_PRE_MORTEM_CHECKS_DIR}/${id}.md`;

/** A `.md` file directly in upstream's pre-mortem-checks folder. */
export function isUpstreamCheckPath(file: string): boolean {
  const dir = `${UPSTREAM_PRE_MORTEM_CHECKS_DIR}/`;
  return file.startsWith(dir) && file.endsWith('.md') && !file.slice(dir.length).includes('/');
}

function slots(finding: Finding): Record<string, string> {
  const d = finding.data;
  return {
    id: yamlValue(finding.id),
    finding_id: yamlValue(finding.id),
    source_artifact: yamlValue(finding.path),
    // Only active findings are compiled (docs/compiler.md#what-it-does, step 2), so the output is always active.
    status: yamlValue('active'),
    applicable_when: yamlValue(d.applicable_when),
    applicable_languages: yamlValue(d.applicable_languages),
    title: inlineText(d.title),
    pattern: inlineText(d.pattern),
    detection_question: inlineText(d.detection_question),
    checklist_item: inlineText(d.checklist_item),
    source_path: finding.path,
  };
}

/** `filled`: the finding's slots when the caller has them already (both rule files use the same). */
export function renderPlanningRule(finding: Finding, filled: Record<string, string> = slots(finding)): { path: string; text: string } {
  return { path: planningRulePath(finding.id), text: renderTemplate(template('planning-rule'), filled) };
}

export function renderPreMortemCheck(finding: Finding, filled: Record<string, string> = slots(finding)): { path: string; text: string } {
  return { path: preMortemCheckPath(finding.id), text: renderTemplate(template('pre-mortem-check'), filled) };
}

const asText = (b: Buffer | string): string => (typeof b === 'string' ? b : b.toString('utf8'));

/**
 * The files one finding's advisory targets decide, given the rule files present now
 * (`existing`: path → bytes, both pre-mortem folders included).
 *
 * - A file already at the output path whose meaning equals the rendered one (sameRuleMeaning) is
 *   kept byte for byte: the agentops compiler writes the same facts with other bytes (quoting,
 *   title), and rewriting them would make the two tools undo each other's work on every run.
 * - A pre-mortem check with no file of ours but a same-meaning one in upstream's folder
 *   (`.agents/premortem-checks/<id>.md`) needs no file of ours at all: upstream's reader prefers
 *   its folder, and ours would only be a duplicate.
 */
export function ruleOutputs(finding: Finding, existing: ReadonlyMap<string, Buffer | string>): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const keep = (r: { path: string; text: string }): { path: string; text: string } => {
    const had = existing.get(r.path);
    if (had === undefined) return r;
    const text = asText(had);
    // Equal bytes need no parse: the common case, and it keeps a 10,000-finding compile fast.
    return text === r.text || sameRuleMeaning(text, r.text) ? { path: r.path, text } : r;
  };
  const filled = slots(finding);
  if (finding.targets.has('plan')) out.push(keep(renderPlanningRule(finding, filled)));
  if (finding.targets.has('pre-mortem')) {
    const r = renderPreMortemCheck(finding, filled);
    const theirs = existing.get(upstreamPreMortemCheckPath(finding.id));
    const covered = !existing.has(r.path) && theirs !== undefined && sameRuleMeaning(asText(theirs), r.text);
    if (!covered) out.push(keep(r));
  }
  return out;
}

/**
 * Upstream's pre-mortem checks are never rewritten or removed here (that folder is the agentops
 * compiler's): each one present is returned unchanged as an output, so it is neither stale nor
 * an orphan.
 */
export function upstreamChecksKept(existing: ReadonlyMap<string, Buffer | string>): { path: string; text: string }[] {
  return [...existing].filter(([p]) => isUpstreamCheckPath(p)).map(([path, b]) => ({ path, text: asText(b) }));
}
