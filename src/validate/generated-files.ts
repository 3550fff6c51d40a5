/**
 * `findings validate` rules for the files other commands generate or read as settings:
 * candidates.jsonl (`recur`), measurements (`constraint measure`), sources.json (`pull`) and
 * config.json. A hand edit or a bad merge there is caught at commit time like any other format.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { parseConfig } from '../config.js';
import { isPlainObject, parseJsonl } from '../jsonl.js';
import { parseMeasurement } from '../lifecycle/measurement.js';
import { parseSourcesFile } from '../reuse/sources-file.js';
import { validate } from '../schema.js';
import type { ValidateTarget } from './index.js';

export async function validateCandidateTargets(targets: readonly ValidateTarget[]): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const t of targets) {
    const seen = new Map<string, number>();
    for (const l of parseJsonl(t.text)) {
      if (l.kind === 'blank') continue;
      if (l.kind === 'invalid') {
        out.push(diagnostic({ file: t.file, line: l.raw.line, ruleId: 'candidates/invalid-json', message: l.reason }));
        continue;
      }
      const problems = validate('candidate', l.value);
      for (const message of problems) out.push(diagnostic({ file: t.file, line: l.raw.line, ruleId: 'candidates/schema', message }));
      const key = isPlainObject(l.value) && typeof l.value['class_key'] === 'string' ? l.value['class_key'] : null;
      if (key === null) continue;
      const first = seen.get(key);
      if (first !== undefined) out.push(diagnostic({ file: t.file, line: l.raw.line, ruleId: 'candidates/duplicate-class', message: `class_key "${key}" already has a candidate on line ${first}; run \`findings recur\` to regenerate the file` }));
      else seen.set(key, l.raw.line);
    }
  }
  return out;
}

export async function validateMeasurementTargets(targets: readonly ValidateTarget[]): Promise<Diagnostic[]> {
  return targets.flatMap((t) => {
    const r = parseMeasurement(t.text, t.file);
    return r.ok ? [] : r.diagnostics;
  });
}

export async function validateSourcesTargets(targets: readonly ValidateTarget[]): Promise<Diagnostic[]> {
  return targets.flatMap((t) => {
    const r = parseSourcesFile(t.text, t.file);
    return r.ok ? [] : r.diagnostics;
  });
}

export async function validateConfigTargets(targets: readonly ValidateTarget[]): Promise<Diagnostic[]> {
  return targets.flatMap((t) => parseConfig(t.text, t.file).diagnostics);
}
