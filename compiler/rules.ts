/**
 * The advisory outputs (finding-compiler.md "Targets"): `.agents/planning-rules/<id>.md` and
 * `.agents/pre-mortem-checks/<id>.md`, rendered from templates/. Pure.
 */
import { planningRulePath, preMortemCheckPath } from '../src/layout.js';
import type { Finding } from './model.js';
import { inlineText, renderTemplate, template, yamlValue } from './render.js';

function slots(finding: Finding): Record<string, string> {
  const d = finding.data;
  return {
    id: yamlValue(finding.id),
    finding_id: yamlValue(finding.id),
    source_artifact: yamlValue(finding.path),
    // Only active findings are compiled (issue step 4), so the output is always active.
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

export function renderPlanningRule(finding: Finding): { path: string; text: string } {
  return { path: planningRulePath(finding.id), text: renderTemplate(template('planning-rule'), slots(finding)) };
}

export function renderPreMortemCheck(finding: Finding): { path: string; text: string } {
  return { path: preMortemCheckPath(finding.id), text: renderTemplate(template('pre-mortem-check'), slots(finding)) };
}
