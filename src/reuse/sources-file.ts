/**
 * `.agents/findings/sources.json` (docs/reuse.md, "sources.json"): one record per pulled source.
 * Sorted and stable, so pulling the same commit twice changes no byte (docs/reuse.md).
 */
import { parseJsonDocument } from '../jsonl.js';
import path from 'node:path';
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { isUrl, type ClassifiedSource } from '../git/pull.js';
import { stableStringify } from '../json-stable.js';
import { Layout } from '../layout.js';
import { toPosix } from '../paths.js';
import { validate } from '../schema.js';
import { jsonKeyLine } from '../text-position.js';

export type PullTier = 'pulled' | 'seed';

export interface SourceEntryRecord {
  readonly id: string;
  readonly digest: string;
}

export interface SourceFileRecord {
  readonly path: string;
  readonly digest: string;
}

export interface SourceRecord {
  readonly url: string;
  readonly ref: string;
  readonly commit: string;
  readonly tier: PullTier;
  readonly entries: readonly SourceEntryRecord[];
  readonly files: readonly SourceFileRecord[];
}

export interface SourcesFile {
  readonly version: 1;
  readonly sources: readonly SourceRecord[];
}

export const EMPTY_SOURCES: SourcesFile = { version: 1, sources: [] };

const KEY_ORDER = ['version', 'sources', 'url', 'ref', 'commit', 'tier', 'entries', 'files', 'id', 'path', 'digest'];

/** Parses sources.json text; a bad file is an error diagnostic (pull refuses to guess ownership). Pure. */
export function parseSourcesFile(
  text: string,
  file: string = Layout.sources,
): { ok: true; value: SourcesFile } | { ok: false; diagnostics: Diagnostic[] } {
  const doc = parseJsonDocument(text);
  if (!doc.ok)
    return {
      ok: false,
      diagnostics: [diagnostic({ file, line: doc.line, column: doc.column, ruleId: 'sources/invalid-json', message: doc.reason })],
    };
  const value = doc.value;
  const problems = validate('sources', value);
  if (problems.length > 0)
    return { ok: false, diagnostics: problems.map((message) => diagnostic({ file, line: 1, ruleId: 'sources/schema', message })) };
  const parsed = value as SourcesFile;
  const seen = new Set<string>();
  for (const s of parsed.sources) {
    if (seen.has(s.url))
      return {
        ok: false,
        diagnostics: [
          diagnostic({ file, line: 1, ruleId: 'sources/duplicate-url', message: `source "${s.url}" is recorded more than once` }),
        ],
      };
    seen.add(s.url);
  }
  return { ok: true, value: parsed };
}

/** Canonical bytes: sources by url, entries by id, files by path, fixed key order. Pure. */
export function serializeSourcesFile(value: SourcesFile): string {
  const sources = [...value.sources]
    .map((s) => ({
      ...s,
      entries: [...s.entries].sort((a, b) => compareStrings(a.id, b.id)),
      files: [...s.files].sort((a, b) => compareStrings(a.path, b.path)),
    }))
    .sort((a, b) => compareStrings(a.url, b.url));
  return stableStringify({ version: 1, sources }, KEY_ORDER);
}

/**
 * The url recorded for a source: a URL verbatim; a local path relative to the repository root
 * with `/` separators, so the committed file names no machine-specific absolute path and
 * `pull --check` resolves it from any working directory.
 */
export function recordedUrl(source: ClassifiedSource, root: string): string {
  if (source.kind === 'url') return source.location;
  const rel = toPosix(path.relative(root, source.location));
  if (rel === '') return '.';
  return path.isAbsolute(rel) ? rel : rel.startsWith('.') ? rel : `./${rel}`;
}

/** The source a recorded url names (local paths resolve against the root). */
export function sourceFromRecord(url: string, root: string): ClassifiedSource {
  return isUrl(url) ? { kind: 'url', location: url } : { kind: 'local', location: path.resolve(root, url) };
}

/** The 1-based line of a source's `"url"` in sources.json text (0 when absent). Pure. */
export function recordLine(text: string | null, url: string): number {
  return text === null ? 0 : jsonKeyLine(text, 'url', url, 0);
}
