/**
 * From parsed front matter to a checked finding: schema (naming the field and its line),
 * id = file name, a safe id. Shared by the compiler and `findings validate`; pure, and free of
 * the Markdown stack so validate stays on the fast path.
 */
import { diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { keyLine, type FrontMatterResult } from '../src/frontmatter.js';
import { Layout, SAFE_ID } from '../src/layout.js';
import { validate } from '../src/schema.js';
import type { ArtifactFrontMatter, CompilerTarget } from '../src/types.js';

export interface Finding {
  readonly id: string;
  /** `.agents/findings/<id>.md` */
  readonly path: string;
  readonly data: ArtifactFrontMatter;
  /** Front-matter YAML and its first file line, for pointing diagnostics at a key. */
  readonly yaml: string;
  readonly yamlLine: number;
  /** `compiler_targets` with the `premortem` alias folded into `pre-mortem`. */
  readonly targets: ReadonlySet<CompilerTarget>;
}

export type ArtifactCheck =
  | { readonly ok: true; readonly finding: Finding }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** The id a file name implies: `.agents/findings/<id>.md` → `<id>`. */
export function idFromPath(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return base.endsWith('.md') ? base.slice(0, -3) : base;
}

/** Is this a promoted-artifact path (directly under `.agents/findings/`, `.md`)? */
export function isArtifactPath(file: string): boolean {
  return file.startsWith(`${Layout.findingsDir}/`) && file.endsWith('.md') && !file.slice(Layout.findingsDir.length + 1).includes('/');
}

/** Folds target aliases (docs/contracts/compiler.md#targets: `premortem` is accepted on input). */
export function normalizeTargets(targets: readonly string[]): Set<CompilerTarget> {
  const out = new Set<CompilerTarget>();
  for (const t of targets) {
    if (t === 'premortem' || t === 'pre-mortem') out.add('pre-mortem');
    else if (t === 'plan' || t === 'constraint') out.add(t);
  }
  return out;
}

/** The first quoted field name in a schema message (`missing required field "a.b"` → `a`). */
function topField(message: string): string | null {
  const m = /field "([^".]+)/.exec(message);
  return m ? m[1]! : null;
}

/**
 * The schema says "mechanical needs the constraint target and a detector" through an `if/then`
 * whose ajv errors read as riddles ("must contain at least 1 valid item(s)", then "must be
 * constraint" once per item). Replace them with what to do. Pure.
 */
function mechanicalHints(data: Record<string, unknown>, problems: string[]): string[] {
  if (data['detectability'] !== 'mechanical') return problems;
  const out = problems.filter((m) => !/^fields? "compiler_targets(\.\d+)?"/.test(m) || !/constraint|valid item/.test(m));
  const targets = Array.isArray(data['compiler_targets']) ? data['compiler_targets'] : [];
  if (!targets.includes('constraint'))
    out.unshift(
      'field "compiler_targets" must include "constraint": a finding with detectability ' +
        '"mechanical" compiles into the constraint index (e.g. ["plan", "pre-mortem", "constraint"])',
    );
  return out;
}

/** Checks parsed front matter against the artifact schema and the file's name. Pure. */
export function checkArtifact(file: string, parsed: FrontMatterResult): ArtifactCheck {
  if (!parsed.ok) return { ok: false, diagnostics: parsed.diagnostics };
  const diagnostics: Diagnostic[] = [];
  const problems = mechanicalHints(parsed.data, validate('finding-artifact', parsed.data));
  for (const message of problems) {
    const field = topField(message);
    const line = field ? keyLine(parsed.yaml, parsed.yamlLine, field) : 1;
    diagnostics.push(diagnostic({ file, line, column: 1, ruleId: 'artifact/schema', message }));
  }
  const id = parsed.data['id'];
  const expected = idFromPath(file);
  if (typeof id === 'string') {
    if (!SAFE_ID.test(id)) {
      diagnostics.push(
        diagnostic({
          file,
          line: keyLine(parsed.yaml, parsed.yamlLine, 'id'),
          column: 1,
          ruleId: 'artifact/unsafe-id',
          message: `id "${id}" must match ${SAFE_ID.source} (it becomes a file name)`,
        }),
      );
    } else if (isArtifactPath(file) && id !== expected) {
      diagnostics.push(
        diagnostic({
          file,
          line: keyLine(parsed.yaml, parsed.yamlLine, 'id'),
          column: 1,
          ruleId: 'artifact/id-mismatch',
          message: `id "${id}" does not match the file name (expected "${expected}")`,
        }),
      );
    }
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const data = parsed.data as unknown as ArtifactFrontMatter;
  return {
    ok: true,
    finding: {
      id: data.id,
      path: file,
      data,
      yaml: parsed.yaml,
      yamlLine: parsed.yamlLine,
      targets: normalizeTargets(data.compiler_targets),
    },
  };
}

/** Line of a top-level key in a finding's artifact (the opening fence when absent). */
export function findingKeyLine(finding: Finding, key: string): number {
  return keyLine(finding.yaml, finding.yamlLine, key, 1);
}
