/**
 * Registry rules for `findings validate`: the strict, commit-time check (docs/registry.md). Unlike the
 * fail-open reader, everything that is not a valid line is an error here, including the leading
 * YAML block the agentops registry carries.
 *
 * Built to stream: each line is parsed, checked and dropped; cross-line checks keep only ids,
 * active dedup keys and pending `superseded_by` references (100,000 lines in well under 3 s).
 */
import { diagnostic, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { duplicateKeyIn, duplicateKeyReason, isPlainObject, jsonErrorReason, splitLines } from '../jsonl.js';
import { describeErrors, validator } from '../schema.js';
import type { ValidateContext, ValidateTarget } from '../validate/types.js';
import { UsageError } from '../exit-codes.js';
import { idFileNameProblem, Layout } from '../layout.js';
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
  const firstIdLower = new Map<string, { id: string; line: number }>();
  // Per id: its latest line and that line's dedup_key (an appended update is compared with it).
  const lastOfId = new Map<string, { line: number; key: unknown }>();
  const actives: { line: number; id: string | null; key: string }[] = [];
  const pendingSupersede: { line: number; id: string; target: string }[] = [];

  const yamlLines = leadingYamlBlock(splitLines(text.slice(0, 64 * 1024)).slice(0, 200));
  if (yamlLines > 0) {
    out.push(
      diagnostic({
        file,
        line: 1,
        column: 1,
        ruleId: 'registry/yaml-block',
        message: `lines 1-${yamlLines} are a YAML block, not JSON lines: every line must be one JSON object`,
      }),
    );
  }

  forEachLine(text, (line, n) => {
    if (n <= yamlLines || line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      out.push(
        diagnostic({ file, line: n, column: jsonErrorColumn(error), ruleId: 'registry/invalid-json', message: jsonErrorReason(error) }),
      );
      return;
    }
    const dup = duplicateKeyIn(line, value);
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
      // Ids become file names (`.agents/findings/<id>.md`): portable ones only, unique regardless of case.
      const idProblem = idFileNameProblem(id);
      if (idProblem !== null)
        out.push(
          diagnostic({
            file,
            line: n,
            column: 1,
            ruleId: 'registry/unsafe-id',
            message: `id "${id}" ${idProblem} (it becomes a file name)`,
          }),
        );
      const sameButCase = firstIdLower.get(id.toLowerCase());
      if (sameButCase !== undefined && sameButCase.id !== id)
        out.push(
          diagnostic({
            file,
            line: n,
            column: 1,
            ruleId: 'registry/case-clash',
            message: `id "${id}" differs from "${sameButCase.id}" (line ${sameButCase.line}) only in case (they would be one file on Windows and macOS)`,
          }),
        );
      else if (sameButCase === undefined) firstIdLower.set(id.toLowerCase(), { id, line: n });
    }
    const key = value['dedup_key'];
    if (typeof id === 'string') {
      const earlier = lastOfId.get(id);
      if (earlier !== undefined) out.push(repeatedId(file, n, id, earlier, key));
      lastOfId.set(id, { line: n, key });
    }
    if (value['status'] === 'active' && typeof key === 'string') actives.push({ line: n, id: typeof id === 'string' ? id : null, key });
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

  // Two active lines share a dedup_key only if both are still their finding's latest state: an
  // older line of an id that was updated by appending (e.g. to retire it) no longer counts.
  const activeKey = new Map<string, number>();
  for (const a of actives) {
    if (a.id !== null && lastOfId.get(a.id)?.line !== a.line) continue;
    const earlier = activeKey.get(a.key);
    if (earlier !== undefined)
      out.push(
        diagnostic({
          file,
          line: a.line,
          column: 1,
          ruleId: 'registry/duplicate-dedup-key',
          message: `dedup_key "${a.key}" is already active on line ${earlier}; merge the two lines or retire one`,
        }),
      );
    else activeKey.set(a.key, a.line);
  }

  // The replacement may come later in the file, so these are checked after the pass.
  for (const p of pendingSupersede) {
    if (!lastOfId.has(p.target))
      out.push(
        diagnostic({
          file,
          line: p.line,
          column: 1,
          ruleId: 'registry/superseded-by',
          message: `superseded_by "${p.target}" names no entry in this registry`,
        }),
      );
  }
  return sortDiagnostics(out);
}

/**
 * A second line with an id already used. With the same dedup_key it is an appended update — how
 * the agentops writers change a finding, and what every reader here takes as its newer state
 * (docs/registry.md "Appended updates") — so only a warning naming both lines. With another
 * dedup_key the two lines describe different findings under one id: still an error.
 */
function repeatedId(file: string, line: number, id: string, earlier: { line: number; key: unknown }, key: unknown): Diagnostic {
  if (earlier.key === key) {
    return diagnostic({
      file,
      line,
      column: 1,
      severity: 'warning',
      ruleId: 'registry/appended-update',
      message:
        `line ${line} repeats id "${id}" of line ${earlier.line}: line ${line} is read as the finding's ` +
        `newer state and line ${earlier.line} is ignored; \`findings add\` would merge them into one line`,
    });
  }
  return diagnostic({
    file,
    line,
    column: 1,
    ruleId: 'registry/duplicate-id',
    message: `id "${id}" is already used on line ${earlier.line} with another dedup_key`,
  });
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
