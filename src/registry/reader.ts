/**
 * The registry reader every command uses. Fail-open exactly as the contract says
 * (docs/contracts/registry.md#reader-failure-behavior): missing or empty → no entries, silently;
 * a malformed line → a warning naming `registry.jsonl:<line>`, and the line is skipped;
 * unreadable → one warning.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { isPlainObject, parseLine, splitLines, type RawLine } from '../jsonl.js';
import { Layout } from '../layout.js';
import type { RepoFiles } from '../repo-files.js';
import { validate } from '../schema.js';
import { latestById } from './latest.js';
import { schemaMessage } from './rules.js';

export { latestById };
import type { RegistryEntry } from '../types.js';

export interface RegistryLine {
  readonly line: number;
  readonly entry: RegistryEntry;
  readonly raw: RawLine;
}

export interface RegistryProblem {
  readonly line: number;
  readonly raw: RawLine;
  readonly reason: string;
  /** `json` when the text is not JSON; `schema` when it is JSON but not a valid entry. */
  readonly kind: 'json' | 'schema' | 'yaml-block';
  /** The parsed value for schema problems (writers may still want to inspect it). */
  readonly value?: unknown;
}

export interface ParsedRegistry {
  readonly lines: readonly RawLine[];
  readonly entries: readonly RegistryLine[];
  readonly problems: readonly RegistryProblem[];
}

/**
 * Detects a leading YAML block (`---` … `---`), as in the agentops registry, so it is reported
 * once instead of line by line. Returns the number of lines it spans, or 0.
 */
export function leadingYamlBlock(lines: readonly RawLine[]): number {
  if (lines[0]?.text.trim() !== '---') return 0;
  for (let i = 1; i < lines.length && i < 200; i += 1) {
    const t = lines[i]!.text.trim();
    if (t === '---' || t === '...') return i + 1;
    if (t.startsWith('{')) return 0;
  }
  return 0;
}

/** Parses registry text into valid entries and problems. Pure. */
export function parseRegistry(text: string): ParsedRegistry {
  const lines = splitLines(text);
  const entries: RegistryLine[] = [];
  const problems: RegistryProblem[] = [];
  const yaml = leadingYamlBlock(lines);
  if (yaml > 0) {
    for (let i = 0; i < yaml; i += 1) {
      const raw = lines[i]!;
      problems.push({ line: raw.line, raw, kind: 'yaml-block', reason: `a YAML block (lines 1-${yaml}) is not JSON lines` });
    }
  }
  for (let i = yaml; i < lines.length; i += 1) {
    const parsed = parseLine(lines[i]!);
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'invalid') {
      problems.push({ line: parsed.raw.line, raw: parsed.raw, kind: 'json', reason: parsed.reason });
      continue;
    }
    if (!isPlainObject(parsed.value)) {
      problems.push({
        line: parsed.raw.line,
        raw: parsed.raw,
        kind: 'schema',
        reason: 'a registry line must be a JSON object',
        value: parsed.value,
      });
      continue;
    }
    const errors = validate('finding-registry', parsed.value);
    if (errors.length > 0) {
      problems.push({ line: parsed.raw.line, raw: parsed.raw, kind: 'schema', reason: schemaMessage(errors), value: parsed.value });
      continue;
    }
    entries.push({ line: parsed.raw.line, entry: parsed.value as unknown as RegistryEntry, raw: parsed.raw });
  }
  return { lines, entries, problems };
}

/** Warnings for a parsed registry's problems: one per line, one for a YAML block. */
export function problemWarnings(file: string, problems: readonly RegistryProblem[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of problems) {
    if (p.kind === 'yaml-block' && p.line !== 1) continue;
    out.push(
      diagnostic({
        file,
        line: p.line,
        severity: 'warning',
        ruleId: `registry/${p.kind === 'json' ? 'invalid-json' : p.kind === 'yaml-block' ? 'yaml-block' : 'schema'}`,
        message: `${p.reason}; ${p.kind === 'yaml-block' ? 'lines' : 'line'} ignored`,
      }),
    );
  }
  return out;
}

/**
 * A registry as commands read it. `entries` holds one line per id, the latest (latestById), so
 * an appended update wins in compile, rank, ttl and explain; `lines`/`problems` stay complete.
 */
export interface RegistryRead extends ParsedRegistry {
  readonly exists: boolean;
  readonly warnings: readonly Diagnostic[];
}

const EMPTY: ParsedRegistry = { lines: [], entries: [], problems: [] };

/**
 * Why a registry that a source reports as absent is in fact unreadable, or null when it is
 * really absent. Only working-tree sources can tell: a directory named `registry.jsonl`
 * (EISDIR) or a file where its folder should be (ENOTDIR) reads as "absent" through a source
 * that maps those to null; `lstat` tells them apart from a missing file (ENOENT).
 */
export async function absentRegistryProblem(files: RepoFiles, file: string = Layout.registry): Promise<string | null> {
  if (files.root === undefined) return null;
  try {
    const st = await lstat(path.join(files.root, file));
    if (st.isFile() || st.isSymbolicLink()) return null;
    return st.isDirectory() ? 'EISDIR: it is a directory' : 'it is not a regular file';
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') return null;
    if (code === 'ENOTDIR') return 'ENOTDIR: a folder on its path is a file';
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Why the registry cannot be read from a source, or null when it can (or is simply absent).
 * For strict callers (`findings validate`, writers) that must refuse what the reader only warns about.
 */
export async function registryReadProblem(files: RepoFiles, file: string = Layout.registry): Promise<string | null> {
  if (files.root !== undefined) return absentRegistryProblem(files, file);
  try {
    await files.read(file);
    return null;
  } catch (error) {
    return errorReason(error);
  }
}

/** An error's message, led by its code (`EISDIR: …`) when the message does not name it. */
function errorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

function unreadable(file: string, reason: string): RegistryRead {
  return {
    ...EMPTY,
    exists: true,
    warnings: [
      diagnostic({
        file,
        severity: 'warning',
        ruleId: 'registry/unreadable',
        message: `cannot read the registry (${reason}); continuing without findings`,
      }),
    ],
  };
}

/** Reads the registry from a file source (working tree, index or commit), fail-open. */
export async function readRegistry(files: RepoFiles, file: string = Layout.registry): Promise<RegistryRead> {
  let data: Buffer | null;
  try {
    data = await files.read(file);
  } catch (error) {
    return unreadable(file, errorReason(error));
  }
  if (data === null) {
    const problem = await absentRegistryProblem(files, file);
    return problem === null ? { ...EMPTY, exists: false, warnings: [] } : unreadable(file, problem);
  }
  const parsed = parseRegistry(data.toString('utf8'));
  return { ...parsed, entries: latestById(parsed.entries), exists: true, warnings: problemWarnings(file, parsed.problems) };
}
