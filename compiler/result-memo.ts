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
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../src/diagnostics.js';
import { Layout } from '../src/layout.js';
import { packageFile } from '../src/package-root.js';
import { VERSION } from '../src/version.js';
import { sweepFolder, writeFast } from './emit.js';
import type { FixtureSource } from './qualify.js';
import type { RawInputs } from './raw-inputs.js';

const FORMAT = 1;

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
  /** The stored result when its inputs key is `inputs` (the caller still compares the fixtures). */
  lookup(inputs: string): StoredResult | null;
  save(result: StoredResult): void;
}

/** The memo in `<git-dir>/findings-compiler/`, or one that never hits when there is no git directory. */
export function openResultMemo(gitDir: string | null): ResultMemo {
  if (gitDir === null) return { lookup: () => null, save: () => undefined };
  const file = path.join(gitDir, 'findings-compiler', 'compile-memo.json');
  let stored: StoredResult | null = null;
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; result?: StoredResult };
    if (doc.format === FORMAT && doc.result && typeof doc.result.inputs === 'string') stored = doc.result;
  } catch {
    // missing or unreadable: no memo (it is only a memo)
  }
  return {
    lookup: (inputs) => (stored !== null && stored.inputs === inputs ? stored : null),
    save(result) {
      mkdirSync(path.dirname(file), { recursive: true });
      // A compile killed mid-save left its temp file here (save runs under compile.lock).
      sweepFolder(path.dirname(file));
      writeFast(file, JSON.stringify({ format: FORMAT, result }));
    },
  };
}
