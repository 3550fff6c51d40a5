/**
 * The compile-result memo: `compile()` is a pure function of what it reads, so when every byte
 * it reads is what a previous compile read, and that compile found nothing to write, the answer
 * is again "nothing to write" with the same diagnostics. A no-op compile then reads every input
 * (it must, to know nothing changed), hashes it, and loads neither the parsers, the schema
 * validators, the matching engine nor the compiler itself (docs/compiler.md "Speed").
 *
 * Like the parse memo it lives in the git directory (`<git-dir>/findings-compiler/compile-memo.json`),
 * is never committed, and deleting it changes nothing but time. It is written only by a compile
 * that found no drift at all, and its key covers:
 * - the tool: its version, the bytes of its templates, and the size and time of every module file
 *   of the compiler and the kernel (a rebuilt tool never reuses an older tool's answer);
 * - the registry's bytes, and the path and bytes of every artifact, rule file and the index;
 * - the fixtures those artifacts name, as the loader read them (text, missing, or refused).
 * The fixture refs are a pure function of the artifacts' bytes, so the memo stores them and a hit
 * reads exactly those.
 *
 * Stamps: with the key, the memo keeps each non-fixture input's `lstat` stamp (size, inode,
 * modification and change time) when all of them last changed at least SETTLED_MS before the run.
 * A later compile whose listing and stamps are all the same knows those bytes without reading
 * them (git's index does the same); otherwise it reads and hashes them, and a hit by content
 * refreshes the stamps. Fixtures are always read: whether one is refused depends on where its
 * path resolves through symlinks, which a stamp of the file does not show.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../src/diagnostics.js';
import { Layout } from '../src/layout.js';
import { packageFile } from '../src/package-root.js';
import { VERSION } from '../src/version.js';
import { sweepFolder, writeFast } from './emit.js';
import type { FixtureSource } from './qualify.js';
import type { RawInputs } from './raw-inputs.js';

const FORMAT = 3;

export interface StoredResult {
  /** Hash of the tool and every input but the fixtures. */
  readonly inputs: string;
  /** The fixture refs those inputs name, sorted, and the hash of what was read there. */
  readonly fixtureRefs: readonly string[];
  readonly fixtures: string;
  /** The diagnostics of that compile, in order. */
  readonly diagnostics: readonly Diagnostic[];
  /** Whether that compile decided the index (false when the index was unreadable and left alone). */
  readonly index: boolean;
  /** The constraint ids that compile kept as they were (no artifact here wrote them). */
  readonly kept: readonly string[];
  /** The files' stamps (see `stampsOf`) when every one was settled, with the hash of their paths; else null. */
  readonly stamps: { readonly paths: string; readonly of: readonly string[] } | null;
}

/**
 * How long before a run a file must last have changed for its stamp to stand for its content.
 * A change inside the file system's timestamp granularity (a tick, or a second on coarse file
 * systems) would keep the stamp; a file that changed this close to the run is read instead.
 */
export const SETTLED_MS = 2000;

/**
 * Each file's stamp — size, inode, modification and change time (`lstat`; the change time is set
 * by the kernel on every write and rename, and no tool can set it back) — or null when one of them
 * changed at or after `settledBefore` (the run's start less SETTLED_MS; a change during the run
 * is after it too): its stamp would not prove its bytes. An absent file is `-`. Same idea as
 * git's index and its "racy" entries.
 */
export function stampsOf(root: string, paths: readonly string[], settledBefore: number): string[] | null {
  const base = root.endsWith(path.sep) ? root : root + path.sep;
  const limit = settledBefore;
  const out: string[] = [];
  for (const p of paths) {
    let st: Stats;
    try {
      st = lstatSync(base + p);
    } catch {
      out.push('-');
      continue;
    }
    if (st.ctimeMs >= limit || st.mtimeMs >= limit) return null;
    out.push(`${st.size}:${st.ino}:${st.mtimeMs}:${st.ctimeMs}`);
  }
  return out;
}

/** Hash of the tool and a path list (the stamps are compared in this order): a rebuilt tool never reuses stamps. */
export const pathsKey = (paths: readonly string[]): string =>
  createHash('sha256').update(tool()).update(paths.join('\0')).digest('base64url');

/**
 * True when every file has the stamp it had when `stored` was saved (and is still settled): its
 * bytes are then the ones that compile read, without reading them.
 */
export function sameStamps(stored: StoredResult, root: string, paths: readonly string[], settledBefore: number): boolean {
  if (stored.stamps === null || stored.stamps.of.length !== paths.length || stored.stamps.paths !== pathsKey(paths)) return false;
  const now = stampsOf(root, paths, settledBefore);
  if (now === null) return false;
  const was = stored.stamps.of;
  for (let i = 0; i < now.length; i += 1) if (now[i] !== was[i]) return false;
  return true;
}

let toolKey: string | null = null;

/** Version, templates and module files of this tool (size and modification time), hashed once per process. */
function tool(): string {
  if (toolKey !== null) return toolKey;
  const h = createHash('sha256').update(`findings-compiler ${VERSION} memo ${FORMAT}\0`);
  const templates = packageFile('templates');
  for (const name of readdirSync(templates).sort())
    h.update(`t ${name}\0`)
      .update(readFileSync(path.join(templates, name)))
      .update('\0');
  // compiler/ and src/ beside this module: dist/ when built, the TypeScript sources under test.
  const here = path.dirname(fileURLToPath(import.meta.url));
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const st = statSync(p);
        h.update(`m ${p} ${st.size} ${st.mtimeMs}\0`);
      }
    }
  };
  walk(here);
  walk(path.join(here, '..', 'src'));
  toolKey = h.digest('base64url');
  return toolKey;
}

/**
 * The key of everything but the fixtures. The bytes go into the hash file after file, and one
 * manifest of names and lengths after them (which splits the bytes back into files): one hash
 * update per file rather than three, for 30,000 files in the benchmark. Pure but for the tool's
 * own files.
 */
export function inputsKey(raw: RawInputs): string {
  const h = createHash('sha256');
  const manifest: string[] = [tool()];
  const entry = (name: string, bytes: Buffer | null | undefined): void => {
    if (bytes === null || bytes === undefined) manifest.push(`${name}\0-`);
    else {
      manifest.push(`${name}\0${bytes.length}`);
      h.update(bytes);
    }
  };
  entry(Layout.registry, raw.registryBytes);
  for (const p of raw.artifactPaths) entry(`a ${p}`, raw.contents.get(p));
  for (const p of raw.rulePaths) entry(`r ${p}`, raw.contents.get(p));
  entry(Layout.constraintIndex, raw.contents.get(Layout.constraintIndex));
  entry(Layout.extendedIndex, raw.contents.get(Layout.extendedIndex));
  h.update(manifest.join('\0\0'));
  return h.digest('base64url');
}

/** The key of the fixtures as read (sorted by ref). Pure. */
export function fixturesKey(fixtures: ReadonlyMap<string, FixtureSource>): string {
  const h = createHash('sha256');
  for (const ref of [...fixtures.keys()].sort()) {
    const f = fixtures.get(ref)!;
    h.update(`${ref}\0${f.kind}\0`);
    if (f.kind === 'text') h.update(`${Buffer.byteLength(f.text)}\0`).update(f.text);
    else if (f.kind === 'refused') h.update(`${f.problem}\0`);
  }
  return h.digest('base64url');
}

export interface ResultMemo {
  /** The stored result, whatever its key. */
  readonly stored: StoredResult | null;
  /** The stored result when its inputs key is `inputs` (the caller still compares the fixtures). */
  lookup(inputs: string): StoredResult | null;
  save(result: StoredResult): void;
}

/** The memo in `<git-dir>/findings-compiler/`, or one that never hits when there is no git directory. */
export function openResultMemo(gitDir: string | null): ResultMemo {
  if (gitDir === null) return { stored: null, lookup: () => null, save: () => undefined };
  const file = path.join(gitDir, 'findings-compiler', 'compile-memo.json');
  let stored: StoredResult | null = null;
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; result?: StoredResult };
    if (doc.format === FORMAT && doc.result && typeof doc.result.inputs === 'string' && doc.result.stamps !== undefined)
      stored = doc.result;
  } catch {
    // missing or unreadable: no memo (it is only a memo)
  }
  return {
    stored,
    lookup: (inputs) => (stored !== null && stored.inputs === inputs ? stored : null),
    save(result) {
      mkdirSync(path.dirname(file), { recursive: true });
      // A compile killed mid-save left its temp file here (save runs under compile.lock).
      sweepFolder(path.dirname(file));
      writeFast(file, JSON.stringify({ format: FORMAT, result }));
    },
  };
}
