/**
 * Front matter of Markdown files, read safely (docs/stack-pitfalls.md#6; ARCHITECTURE.md "Front matter").
 *
 * Two readers share every rule here: the compiler's (unified + remark-frontmatter, in
 * compiler/markdown.ts) and this module's fast one (a hardened gray-matter), which
 * `findings validate` uses so the pre-commit path never loads unified (docs/stack-pitfalls.md#9).
 * Both give the same data or the same refusal (a test holds them to it).
 *
 * What "safe" means: YAML is parsed as YAML 1.2 core schema (dates stay strings, `0755` stays a
 * decimal 755 as YAML 1.2 says, no custom tags), aliases are capped (no "billion laughs"), keys that
 * could reach an object prototype are refused, nothing is ever executed (`---js` is an error),
 * an unclosed fence is an error, and files over a size cap or with binary bytes are refused
 * before any parsing.
 */
import matter from 'gray-matter';
import { isMap, isPair, isScalar, isSeq, parseDocument, visit, type Document } from 'yaml';
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { lineAt, positionAt } from './text-position.js';

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

/**
 * Checks the opening fence and finds the closing one. The opening line must be exactly `---`;
 * `---js` & co. are refused (never code), other `---<lang>` too (only YAML is read).
 */
export function findFence(text: string, file: string): { ok: true; fence: FenceInfo } | { ok: false; result: FrontMatterResult } {
  const firstBreak = text.indexOf('\n');
  const first = (firstBreak === -1 ? text : text.slice(0, firstBreak)).replace(/\r$/, '');
  if (!first.startsWith('---'))
    return { ok: false, result: fail(file, 1, 'artifact/no-front-matter', 'file does not start with a YAML front matter block ("---")') };
  const lang = first.slice(3).trim();
  if (lang !== '') {
    if (CODE_LANGUAGES.has(lang.toLowerCase())) {
      return {
        ok: false,
        result: fail(
          file,
          1,
          'artifact/front-matter-language',
          `front matter language "${lang}" is code and is never executed; write YAML between plain "---" fences`,
        ),
      };
    }
    if (/^-+$/.test(lang) || /^-/.test(first.slice(3))) {
      return { ok: false, result: fail(file, 1, 'artifact/no-front-matter', 'file does not start with a YAML front matter block ("---")') };
    }
    return {
      ok: false,
      result: fail(
        file,
        1,
        'artifact/front-matter-language',
        `front matter language "${lang}" is not supported; only YAML between plain "---" fences is read`,
      ),
    };
  }
  if (firstBreak === -1)
    return {
      ok: false,
      result: fail(file, 1, 'artifact/unclosed-front-matter', 'front matter opened on line 1 is never closed with "---"'),
    };
  let pos = firstBreak + 1;
  let line = 2;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const raw = nl === -1 ? text.slice(pos) : text.slice(pos, nl);
    if (/^---[ \t]*\r?$/.test(raw)) return { ok: true, fence: { closeLine: line, end: nl === -1 ? text.length : nl + 1 } };
    // gray-matter would close here and remark would not: refuse rather than let readers disagree.
    if (raw.startsWith('---')) {
      return {
        ok: false,
        result: fail(
          file,
          line,
          'artifact/ambiguous-fence',
          'a line starting with "---" inside the front matter is ambiguous; the block must end with a line that is exactly "---"',
        ),
      };
    }
    if (nl === -1) break;
    pos = nl + 1;
    line += 1;
  }
  return { ok: false, result: fail(file, 1, 'artifact/unclosed-front-matter', 'front matter opened on line 1 is never closed with "---"') };
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

function refuseHostileKeys(doc: Document, lineOf: (offset: number) => { line: number; col: number }): YamlRefusal | null {
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
function parseYaml12Or(yaml: string, firstLine: number): FrontMatterData {
  const doc = parseDocument(yaml, {
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

/** Parses front-matter YAML into a result value (never throws). Shared by both readers. */
export function parseFrontMatterYaml(yaml: string, firstLine: number, file: string): FrontMatterResult {
  try {
    return { ok: true, data: parseYaml12Or(yaml, firstLine), yamlLine: firstLine, yaml };
  } catch (error) {
    if (error instanceof YamlRefusal) return fail(file, error.line, error.ruleId, error.message, error.column);
    throw error;
  }
}

const refuse = (language: string) => (): never => {
  throw new YamlRefusal('artifact/front-matter-language', 1, 1, `front matter language "${language}" is code and is never executed`);
};

/**
 * Reads a Markdown file's front matter with gray-matter, hardened: every engine is replaced
 * (yaml → the YAML 1.2 parse above; js/javascript/coffee/coffeescript/cson → refuse), options
 * are always passed (so gray-matter's content cache is bypassed), and the fences are checked
 * here (gray-matter accepts an unclosed fence). Pure.
 */
export function readFrontMatter(bytes: Buffer | string, file: string): FrontMatterResult {
  const decoded = decodeText(bytes, file);
  if (!decoded.ok) return { ok: false, diagnostics: decoded.diagnostics };
  const text = decoded.text;
  const fence = findFence(text, file);
  if (!fence.ok) return fence.result;
  const yaml = yamlBetweenFences(text, fence.fence);
  let called = false;
  const yamlEngine = {
    parse: (str: string): object => {
      called = true;
      // gray-matter closes at the first "\n---" even mid-line; insist it agrees with the real fence.
      if (trimBreaks(str) !== trimBreaks(yaml)) {
        throw new YamlRefusal(
          'artifact/unclosed-front-matter',
          2,
          1,
          'a line starting with "---" inside the front matter is ambiguous; the block must end with a line that is exactly "---"',
        );
      }
      return parseYaml12Or(yaml, 2);
    },
    stringify: (): string => {
      throw new Error('not used');
    },
  };
  let data: FrontMatterData;
  try {
    const parsed = matter(text, {
      language: 'yaml',
      delimiters: '---',
      excerpt: false,
      engines: {
        yaml: yamlEngine,
        yml: yamlEngine,
        js: { parse: refuse('js'), stringify: refuse('js') },
        javascript: { parse: refuse('javascript'), stringify: refuse('javascript') },
        coffee: { parse: refuse('coffee'), stringify: refuse('coffee') },
        coffeescript: { parse: refuse('coffeescript'), stringify: refuse('coffeescript') },
        cson: { parse: refuse('cson'), stringify: refuse('cson') },
      },
    } as unknown as Parameters<typeof matter>[1]);
    data = called ? (parsed.data as FrontMatterData) : (Object.create(null) as FrontMatterData);
  } catch (error) {
    if (error instanceof YamlRefusal) return fail(file, error.line, error.ruleId, error.message, error.column);
    throw error;
  }
  return { ok: true, data: Object.assign(Object.create(null) as FrontMatterData, data), yamlLine: 2, yaml };
}

const trimBreaks = (s: string): string => s.replace(/^\r?\n/, '').replace(/[\r\n]+$/, '');

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
