/**
 * Front-matter parse memos. Parsing is a pure function of a file's bytes, so a memo changes
 * nothing but speed: remark + YAML cost ~0.35 ms per artifact, which alone would put a no-op
 * compile of 10,000 artifacts at ~3.5 s.
 *
 * The persistent memo lives in the git directory (`<git-dir>/findings-compiler/parse-cache.json`),
 * never in the working tree: it is not a repository file, is never committed, and `--check`
 * only reads it. Entries are keyed by the SHA-256 of the bytes plus the tool version, and the
 * file is pruned to the entries the last compile used.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../src/diagnostics.js';
import { decodeText, type FrontMatterData, type FrontMatterResult } from '../src/frontmatter.js';
import { VERSION } from '../src/version.js';
import type { MemoResult, ParseCache } from './compile.js';
import { sweepFolder, writeFast } from './emit.js';

const FORMAT = 2;

/** `yamlLength`: the YAML text is the line after the opening fence onwards, this many characters. */
type Stored = { ok: true; data: object; yamlLength: number } | { ok: false; diagnostics: Diagnostic[] };

const keyOf = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('base64url');

/** An in-memory memo (one process). */
export function memoryParseCache(): ParseCache {
  const m = new Map<string, MemoResult>();
  const k = (b: Buffer | string): string => (typeof b === 'string' ? `s${b}` : `b${b.toString('latin1')}`);
  return { get: (bytes) => asParsed(m, k(bytes)), set: (bytes, _file, r) => void m.set(k(bytes), r) };
}

/**
 * The memo's entry for `key` as a parse gives it: data without a prototype. Data set with one
 * (ParseCache) is copied on its first hit, not when set: a cold compile sets 10,000 and asks for none.
 */
function asParsed(memo: Map<string, MemoResult>, key: string): FrontMatterResult | undefined {
  const r = memo.get(key);
  if (r === undefined || !r.ok) return r;
  // Data without a prototype came from a parse, or was copied here before: it is a parse's answer.
  if (Object.getPrototypeOf(r.data) === null) return r as FrontMatterResult;
  const parsed: FrontMatterResult = { ...r, data: Object.assign(Object.create(null) as FrontMatterData, r.data) };
  memo.set(key, parsed);
  return parsed;
}

export interface PersistentParseCache extends ParseCache {
  /** Writes the memo back (pruned to what this run used) when it changed. */
  save(): void;
}

/** Opens the repository's persistent memo in its git directory, or null without one. */
export function openParseCache(dir: string | null): PersistentParseCache | null {
  if (!dir) return null;
  const file = path.join(dir, 'findings-compiler', 'parse-cache.json');
  let stored: Record<string, Stored> = Object.create(null) as Record<string, Stored>;
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; tool?: unknown; entries?: unknown };
    if (doc.format === FORMAT && doc.tool === VERSION && typeof doc.entries === 'object' && doc.entries !== null) {
      stored = Object.assign(Object.create(null) as Record<string, Stored>, doc.entries);
    }
  } catch {
    // missing or unreadable: start empty (it is only a memo)
  }
  const used = new Map<string, Stored>();
  const memo = new Map<string, MemoResult>();
  let added = false;
  return {
    get(bytes, f) {
      const key = keyOf(bytes);
      const hit = asParsed(memo, key);
      if (hit) return hit;
      const s = stored[key];
      if (!s) return undefined;
      used.set(key, s);
      let r: FrontMatterResult;
      if (s.ok) {
        // The YAML text is re-sliced from the bytes (cheap, and no front-matter parser is loaded)
        // rather than stored twice.
        const decoded = decodeText(bytes, f);
        if (!decoded.ok || typeof s.yamlLength !== 'number') return undefined;
        const start = decoded.text.indexOf('\n') + 1;
        r = {
          ok: true,
          data: Object.assign(Object.create(null) as FrontMatterData, s.data),
          yamlLine: 2,
          yaml: decoded.text.slice(start, start + s.yamlLength),
        };
      } else {
        r = { ok: false, diagnostics: s.diagnostics.map((d) => ({ ...d, file: f })) };
      }
      memo.set(key, r);
      return r;
    },
    set(bytes, _f, r) {
      const key = keyOf(bytes);
      memo.set(key, r);
      used.set(key, r.ok ? { ok: true, data: r.data, yamlLength: r.yaml.length } : { ok: false, diagnostics: [...r.diagnostics] });
      added = true;
    },
    save() {
      if (!added && used.size === Object.keys(stored).length) return;
      const entries: Record<string, Stored> = {};
      for (const k of [...used.keys()].sort()) entries[k] = used.get(k)!;
      mkdirSync(path.dirname(file), { recursive: true });
      // A compile killed mid-save left its temp file here (save runs under compile.lock).
      sweepFolder(path.dirname(file));
      writeFast(file, JSON.stringify({ format: FORMAT, tool: VERSION, entries }));
    },
  };
}
