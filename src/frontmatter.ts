/**
 * Front matter of Markdown files, read safely (docs/stack-pitfalls.md#6; ARCHITECTURE.md "Front matter").
 *
 * One reader for every path (compile, `findings validate`, the hooks' checklist lookup, pull,
 * explain): gray-matter finds the block (its opening line, its language, where it closes) and
 * hands the text between the fences to its `yaml` engine, which is the `yaml` package here. The
 * checks below only judge gray-matter's answer: a block it found is refused when its closing line
 * is not exactly `---` (gray-matter closes at any line starting with `---`) or when it never
 * closes (gray-matter then takes the whole file).
 *
 * What "safe" means: YAML is parsed as YAML 1.2 core schema (dates stay strings, `0755` stays a
 * decimal 755 as YAML 1.2 says, no custom tags), aliases are capped (no "billion laughs"), keys that
 * could reach an object prototype are refused, nothing is ever executed (`---js` is an error and
 * every code engine of gray-matter is replaced by one that refuses), an unclosed fence is an
 * error, and files over a size cap or with binary bytes are refused before any parsing.
 *
 * Speed: gray-matter (with js-yaml, which it loads for its default engine) and `yaml` are loaded
 * on the first parse, not on import: the compiler's parse memo answers a no-op compile without
 * them, and the pre-commit path loads this module for its types and size cap only
 * (docs/stack-pitfalls.md#9).
 */
import { createRequire } from 'node:module';
import type GrayMatter from 'gray-matter';
import type * as Yaml from 'yaml';
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { lineAt, positionAt } from './text-position.js';
import { parseYamlSubset } from './yaml-subset.js';

const require = createRequire(import.meta.url);
let grayMatterModule: typeof GrayMatter | undefined;
let yamlModule: typeof Yaml | undefined;
const grayMatter = (): typeof GrayMatter => (grayMatterModule ??= require('gray-matter') as typeof GrayMatter);
const yamlLib = (): typeof Yaml => (yamlModule ??= require('yaml') as typeof Yaml);

/** Artifacts are small; anything bigger is refused without being parsed (hostile-input cap). */
export const MAX_FRONT_MATTER_FILE_BYTES = 1024 * 1024;
/** YAML aliases allowed per document: enough for hand-written reuse, far too few to blow up. */
export const MAX_ALIAS_COUNT = 20;

export type FrontMatterData = Record<string, unknown>;

export type FrontMatterResult =
  | {
      readonly ok: true;
      readonly data: FrontMatterData;
      /** 1-based line of the first YAML line (the line after the opening fence). */
      readonly yamlLine: number;
      /** The YAML text between the fences, as written. */
      readonly yaml: string;
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

const REFUSED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const CODE_LANGUAGES = new Set(['js', 'javascript', 'coffee', 'coffeescript', 'cson']);

function fail(file: string, line: number, ruleId: string, message: string, column = 1): FrontMatterResult {
  return { ok: false, diagnostics: [diagnostic({ file, line, column, ruleId, message })] };
}

/** Decodes bytes as UTF-8 text, refusing oversized and binary content. Pure. */
export function decodeText(
  bytes: Buffer | string,
  file: string,
): { ok: true; text: string } | { ok: false; diagnostics: readonly Diagnostic[] } {
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length;
  if (size > MAX_FRONT_MATTER_FILE_BYTES) {
    return {
      ok: false,
      diagnostics: [
        diagnostic({
          file,
          line: 1,
          ruleId: 'artifact/too-large',
          message: `file is ${size} bytes; artifacts over ${MAX_FRONT_MATTER_FILE_BYTES} bytes are refused without being parsed`,
        }),
      ],
    };
  }
  let text: string;
  if (typeof bytes === 'string') text = bytes;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return {
        ok: false,
        diagnostics: [diagnostic({ file, line: 1, ruleId: 'artifact/binary', message: 'file is not valid UTF-8 text (binary content)' })],
      };
    }
  }
  const nul = text.indexOf('\0');
  if (nul !== -1) {
    const line = lineAt(text, nul);
    return {
      ok: false,
      diagnostics: [diagnostic({ file, line, ruleId: 'artifact/binary', message: 'file contains a NUL byte (binary content)' })],
    };
  }
  return { ok: true, text: text.startsWith('\uFEFF') ? text.slice(1) : text };
}

export interface FenceInfo {
  /** 1-based line of the closing fence. */
  readonly closeLine: number;
  /** Offset just after the closing fence line (including its line break). */
  readonly end: number;
}

const NO_FRONT_MATTER = 'file does not start with a YAML front matter block ("---")';
const UNCLOSED = 'front matter opened on line 1 is never closed with "---"';

/**
 * Where gray-matter finds the front matter of `text`, judged by the rules above: the opening line
 * must be exactly `---` (`---js` & co. are refused as code, any other `---<lang>` as unsupported),
 * and the line gray-matter closes at must be exactly `---`. `parseYaml` is gray-matter's `yaml`
 * engine, given the text between the fence lines as written (null: find the block only). A YAML
 * refusal is thrown only once the block itself is sound, so a fence problem is reported first.
 * `data` is null when gray-matter did not call the engine (a block of comments only). Pure.
 */
function splitFrontMatter(
  text: string,
  file: string,
  parseYaml: ((yaml: string) => object) | null,
): { ok: true; fence: FenceInfo; data: object | null } | { ok: false; result: FrontMatterResult } {
  const matter = grayMatter();
  // gray-matter's own test and language detection (it reads the rest of the first line; give
  // it a line break to stop at when the file is one line).
  if (!matter.test(text)) return { ok: false, result: fail(file, 1, 'artifact/no-front-matter', NO_FRONT_MATTER) };
  const language = matter.language(text.includes('\n') ? text : `${text}\n`);
  if (language.name !== '') {
    if (/^-/.test(language.raw)) return { ok: false, result: fail(file, 1, 'artifact/no-front-matter', NO_FRONT_MATTER) };
    const code = CODE_LANGUAGES.has(language.name.toLowerCase());
    const message = code
      ? `front matter language "${language.name}" is code and is never executed; write YAML between plain "---" fences`
      : `front matter language "${language.name}" is not supported; only YAML between plain "---" fences is read`;
    return { ok: false, result: fail(file, 1, 'artifact/front-matter-language', message) };
  }
  let seen: string | undefined;
  let data: object | null = null;
  let refusal: unknown = null;
  const yamlEngine = {
    parse: (block: string): object => {
      seen = block;
      if (parseYaml === null) return {};
      try {
        // The block runs from the opening line's break to just before the closing line.
        data = parseYaml(`${block.slice(block.indexOf('\n') + 1)}\n`);
      } catch (error) {
        refusal = error;
      }
      return {};
    },
    stringify: (): string => {
      throw new Error('not used');
    },
  };
  const parsed = matter(text, {
    language: 'yaml',
    delimiters: '---',
    excerpt: false,
    engines: { ...CODE_ENGINES, yaml: yamlEngine, yml: yamlEngine },
  } as unknown as Parameters<typeof GrayMatter>[1]) as { matter?: string };
  const block = parsed.matter ?? seen;
  // No block: `----…` on the first line (gray-matter's "not a delimiter").
  if (block === undefined) return { ok: false, result: fail(file, 1, 'artifact/no-front-matter', NO_FRONT_MATTER) };
  const closeAt = 3 + block.length; // the "\n" before the closing "---" (the language is empty)
  if (closeAt >= text.length) return { ok: false, result: fail(file, 1, 'artifact/unclosed-front-matter', UNCLOSED) };
  const closeLine = lineAt(text, closeAt + 1);
  const nl = text.indexOf('\n', closeAt + 1);
  const closing = nl === -1 ? text.slice(closeAt + 1) : text.slice(closeAt + 1, nl);
  if (!/^---[ \t]*\r?$/.test(closing)) {
    // gray-matter closed at a line that only starts with "---": refuse rather than guess.
    return {
      ok: false,
      result: fail(
        file,
        closeLine,
        'artifact/ambiguous-fence',
        'a line starting with "---" inside the front matter is ambiguous; the block must end with a line that is exactly "---"',
      ),
    };
  }
  if (refusal !== null) throw refusal;
  return { ok: true, fence: { closeLine, end: nl === -1 ? text.length : nl + 1 }, data };
}

/** Where the front matter of a (decoded) text is, without parsing its YAML (gray-matter's split). */
export function findFence(text: string, file: string): { ok: true; fence: FenceInfo } | { ok: false; result: FrontMatterResult } {
  const split = splitFrontMatter(text, file, null);
  return split.ok ? { ok: true, fence: split.fence } : split;
}

/** Thrown by the YAML engine inside gray-matter; carries what the diagnostic needs. */
class YamlRefusal extends Error {
  constructor(
    readonly ruleId: string,
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super(message);
  }
}

function refuseHostileKeys(doc: Yaml.Document, lineOf: (offset: number) => { line: number; col: number }): YamlRefusal | null {
  const { isMap, isPair, isScalar, isSeq, visit } = yamlLib();
  let found: YamlRefusal | null = null;
  visit(doc, {
    Pair(_, pair) {
      if (isPair(pair) && isScalar(pair.key) && typeof pair.key.value === 'string' && REFUSED_KEYS.has(pair.key.value)) {
        const pos = lineOf(pair.key.range?.[0] ?? 0);
        found = new YamlRefusal(
          'artifact/hostile-key',
          pos.line,
          pos.col,
          `key "${pair.key.value}" is refused (it could reach an object prototype)`,
        );
        return visit.BREAK;
      }
      return undefined;
    },
    Node(_, node) {
      if ((isScalar(node) || isMap(node) || isSeq(node)) && node.tag !== undefined && !node.tag.startsWith('tag:yaml.org,2002:')) {
        const pos = lineOf(node.range?.[0] ?? 0);
        found = new YamlRefusal('artifact/yaml', pos.line, pos.col, `YAML tag "${node.tag}" is not allowed`);
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * Parses front-matter YAML: YAML 1.2 core schema, aliases capped, no custom tags, refused keys,
 * duplicate keys an error; the top level must be a mapping. `firstLine` is the file line of the
 * YAML's first line, for messages. Throws YamlRefusal (caught by the readers).
 */
function parseYaml12Or(yaml: string, firstLine: number, subset: boolean): FrontMatterData {
  // Same answer as below for the plain front matter the compiler writes, ~100x faster (src/yaml-subset.ts).
  const simple = subset ? parseYamlSubset(yaml) : null;
  if (simple !== null) return Object.assign(Object.create(null) as FrontMatterData, simple);
  const doc = yamlLib().parseDocument(yaml, {
    version: '1.2',
    schema: 'core',
    customTags: [],
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
    stringKeys: true,
  });
  const lineOf = (offset: number): { line: number; col: number } => {
    const at = positionAt(yaml, offset);
    return { line: firstLine + at.line - 1, col: at.column };
  };
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const pos = lineOf(problem.pos[0]);
    throw new YamlRefusal('artifact/yaml', pos.line, pos.col, `invalid YAML: ${problem.message.split('\n')[0]}`);
  }
  const hostile = refuseHostileKeys(doc, lineOf);
  if (hostile) throw hostile;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new YamlRefusal('artifact/yaml', firstLine, 1, `YAML refused: ${message} (aliases are capped at ${MAX_ALIAS_COUNT})`);
  }
  if (value === null || value === undefined) return Object.create(null) as FrontMatterData;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new YamlRefusal('artifact/yaml', firstLine, 1, 'front matter must be a YAML mapping (key: value lines)');
  // A null-prototype copy: no inherited keys can be confused with fields.
  return Object.assign(Object.create(null) as FrontMatterData, value);
}

const refuse = (language: string) => (): never => {
  throw new YamlRefusal('artifact/front-matter-language', 1, 1, `front matter language "${language}" is code and is never executed`);
};

const CODE_ENGINES = Object.fromEntries(
  [...CODE_LANGUAGES].map((language) => [language, { parse: refuse(language), stringify: refuse(language) }]),
);

/**
 * Reads a Markdown file's front matter: gray-matter splits it and calls its `yaml` engine, which
 * is the YAML 1.2 parse above; every code engine refuses. Options are always passed, so
 * gray-matter's content cache (which would hand out one shared data object) is bypassed. Pure.
 */
export function readFrontMatter(bytes: Buffer | string, file: string): FrontMatterResult {
  return readFrontMatterWith(bytes, file, { subset: true });
}

/**
 * `readFrontMatter` with its fast path chosen: `subset: false` parses every block with the `yaml`
 * package (the tests hold the fast path to that answer).
 */
export function readFrontMatterWith(bytes: Buffer | string, file: string, options: { subset: boolean }): FrontMatterResult {
  const decoded = decodeText(bytes, file);
  if (!decoded.ok) return { ok: false, diagnostics: decoded.diagnostics };
  const text = decoded.text;
  let split: ReturnType<typeof splitFrontMatter>;
  try {
    split = splitFrontMatter(text, file, (yaml) => parseYaml12Or(yaml, 2, options.subset));
  } catch (error) {
    if (error instanceof YamlRefusal) return fail(file, error.line, error.ruleId, error.message, error.column);
    throw error;
  }
  if (!split.ok) return split.result;
  // gray-matter skips the engine for a block of comments only: that is an empty mapping.
  const data = split.data ?? (Object.create(null) as FrontMatterData);
  return {
    ok: true,
    data: Object.assign(Object.create(null) as FrontMatterData, data),
    yamlLine: 2,
    yaml: yamlBetweenFences(text, split.fence),
  };
}

/** The YAML text between the opening fence line and the closing fence line. */
export function yamlBetweenFences(text: string, fence: FenceInfo): string {
  return text.slice(text.indexOf('\n') + 1, lineStart(text, fence.closeLine));
}

/** Offset of the start of a 1-based line. */
export function lineStart(text: string, line: number): number {
  let pos = 0;
  for (let l = 1; l < line; l += 1) {
    const nl = text.indexOf('\n', pos);
    if (nl === -1) return text.length;
    pos = nl + 1;
  }
  return pos;
}

/** The 1-based file line where a top-level key is written, or the fallback. Pure. */
export function keyLine(yaml: string, yamlLine: number, key: string, fallback: number = yamlLine - 1): number {
  const lines = yaml.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const l = lines[i]!;
    if (l.startsWith(`${key}:`) || l.startsWith(`"${key}":`) || l.startsWith(`'${key}':`)) return yamlLine + i;
  }
  return fallback;
}
