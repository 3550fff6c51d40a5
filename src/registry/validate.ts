/**
 * Registry rules for `findings validate`: the strict, commit-time check (issue 2). Unlike the
 * fail-open reader, everything that is not a valid line is an error here, including the leading
 * YAML block the agentops registry carries.
 *
 * Built to stream: each line is parsed, checked and dropped; cross-line checks keep only ids,
 * active dedup keys and pending `superseded_by` references (100,000 lines in well under 3 s).
 */
import { diagnostic, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { duplicateKey, duplicateKeyReason, isPlainObject, jsonErrorReason, splitLines } from '../jsonl.js';
import { describeErrors, validator } from '../schema.js';
import type { ValidateContext, ValidateTarget } from '../validate/index.js';
import { UsageError } from '../exit-codes.js';
import { Layout } from '../layout.js';
import type { RepoFiles } from '../repo-files.js';
import { leadingYamlBlock, registryReadProblem } from './reader.js';
import { dedupKeyWarnings, schemaMessage, supersededByProblem } from './rules.js';

/** Calls `fn(text, lineNo)` for each line, BOM stripped, CRLF accepted; no array of lines is built. */
function forEachLine(text: string, fn: (line: string, lineNo: number) => void): void {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNo = 1;
  while (start < text.length) {
    let nl = text.indexOf('\n', start);
    if (nl === -1) nl = text.length;
    const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    fn(text.slice(start, end), lineNo);
    start = nl + 1;
    lineNo += 1;
  }
}

/** 1-based column of a JSON.parse failure, when V8 names a position. */
function jsonErrorColumn(error: unknown): number {
  const m = /position (\d+)/.exec(error instanceof Error ? error.message : '');
  return m ? Number(m[1]) + 1 : 0;
}

/** Checks one registry file's text. Pure. */
export function validateRegistryText(file: string, text: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const check = validator('finding-registry');
  const firstId = new Map<string, number>();
  const activeKey = new Map<string, number>();
  const pendingSupersede: { line: number; id: string; target: string }[] = [];

  const yamlLines = leadingYamlBlock(splitLines(text.slice(0, 64 * 1024)).slice(0, 200));
  if (yamlLines > 0) {
    out.push(diagnostic({ file, line: 1, column: 1, ruleId: 'registry/yaml-block', message: `lines 1-${yamlLines} are a YAML block, not JSON lines: every line must be one JSON object` }));
  }

  forEachLine(text, (line, n) => {
    if (n <= yamlLines || line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      out.push(diagnostic({ file, line: n, column: jsonErrorColumn(error), ruleId: 'registry/invalid-json', message: jsonErrorReason(error) }));
      return;
    }
    const dup = duplicateKey(line);
    if (dup !== null) {
      out.push(diagnostic({ file, line: n, column: dup.offset + 1, ruleId: 'registry/invalid-json', message: duplicateKeyReason(dup) }));
      return;
    }
    if (!isPlainObject(value)) {
      out.push(diagnostic({ file, line: n, column: 1, ruleId: 'registry/schema', message: 'a registry line must be a JSON object' }));
      return;
    }
    const superseded = value['status'] === 'superseded';
    let schemaOk = check(value);
    if (!schemaOk) {
      // `superseded_by` on a superseded line is reported by its own rule below, once.
      const errors = (check.errors ?? []).filter((e) => !(superseded && (e.instancePath === '/superseded_by' || e.keyword === 'if')));
      if (errors.length > 0) {
        out.push(diagnostic({ file, line: n, column: 1, ruleId: 'registry/schema', message: schemaMessage(describeErrors(errors)) }));
      } else {
        schemaOk = true;
      }
    }

    // Cross-line facts come from every JSON object line that has the field, valid or not:
    // a duplicate id is a duplicate even on a line that also breaks the schema.
    const id = value['id'];
    if (typeof id === 'string') {
      const earlier = firstId.get(id);
      if (earlier !== undefined) out.push(diagnostic({ file, line: n, column: 1, ruleId: 'registry/duplicate-id', message: `id "${id}" is already used on line ${earlier}` }));
      else firstId.set(id, n);
    }
    const key = value['dedup_key'];
    if (value['status'] === 'active' && typeof key === 'string') {
      const earlier = activeKey.get(key);
      if (earlier !== undefined) out.push(diagnostic({ file, line: n, column: 1, ruleId: 'registry/duplicate-dedup-key', message: `dedup_key "${key}" is already active on line ${earlier}; merge the two lines or retire one` }));
      else activeKey.set(key, n);
    }
    if (superseded) {
      // Existence is checked after the pass: the replacement may come later in the file.
      const problem = supersededByProblem(value, () => true);
      if (problem !== null) out.push(diagnostic({ file, line: n, column: 1, ruleId: 'registry/superseded-by', message: problem }));
      else pendingSupersede.push({ line: n, id: typeof id === 'string' ? id : '', target: value['superseded_by'] as string });
    }
    if (schemaOk) {
      const entry = value as { dedup_key: string; category: string; applicable_when: string[] };
      for (const w of dedupKeyWarnings(entry, file, n)) out.push({ ...w, column: 1 });
    }
  });

  // The replacement may come later in the file, so these are checked after the pass.
  for (const p of pendingSupersede) {
    if (!firstId.has(p.target)) out.push(diagnostic({ file, line: p.line, column: 1, ruleId: 'registry/superseded-by', message: `superseded_by "${p.target}" names no entry in this registry` }));
  }
  return sortDiagnostics(out);
}

/** The validator `findings validate` routes registry files to (src/validate/index.ts). */
export async function validateRegistryTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  void ctx; // each registry file is self-contained: ids resolve within the same file
  return targets.flatMap((t) => validateRegistryText(t.file, t.text));
}

/**
 * The strict side of "unreadable" (the reader only warns): throws a UsageError (exit 2) naming
 * the registry path when it exists but cannot be read — a directory named `registry.jsonl`
 * (EISDIR), a file where `.agents/findings/` should be (ENOTDIR), a permission error.
 * A missing registry is fine. `findings validate` calls this before routing the layout's files.
 */
export async function assertRegistryReadable(files: RepoFiles, file: string = Layout.registry): Promise<void> {
  const problem = await registryReadProblem(files, file);
  if (problem !== null) throw new UsageError(`${file}: cannot read the registry (${problem})`);
}
