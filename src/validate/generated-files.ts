/**
 * `findings validate` rules for the files other commands generate or read as settings:
 * candidates.jsonl (`recur`), measurements (`constraint measure`), sources.json (`pull`) and
 * config.json. A hand edit or a bad merge there is caught at commit time like any other format.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { parseConfig } from '../config.js';
import { parseMeasurement } from '../lifecycle/measurement.js';
import { parseCandidateLines } from '../recur/candidates.js';
import { parseSourcesFile } from '../reuse/sources-file.js';
import type { ValidateTarget } from './types.js';

export async function validateCandidateTargets(targets: readonly ValidateTarget[]): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const t of targets) {
    const { lines, problems } = parseCandidateLines(t.text);
    for (const p of problems) out.push(diagnostic({ file: t.file, line: p.line, ruleId: 'recur/invalid-candidate', message: p.reason }));
    const seen = new Map<string, number>();
    for (const { line, candidate } of lines) {
      const first = seen.get(candidate.class_key);
      if (first !== undefined)
        out.push(
          diagnostic({
            file: t.file,
            line,
            ruleId: 'recur/duplicate-class',
            message: `class_key "${candidate.class_key}" already has a candidate on line ${first}; run \`findings recur\` to regenerate the file`,
          }),
        );
      else seen.set(candidate.class_key, line);
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
