/**
 * Review comments are Markdown: unified + remark-parse read them as a tree (docs/import.md, "From a
 * comment to a finding"), so a ```suggestion``` fence, a quote of the code or of an earlier comment,
 * a code span and inline HTML are told apart by the parser, not by regexes. The parser is imported
 * on first use (docs/stack-pitfalls.md#9: ~170 ms to load), only by `findings import`; no commit
 * loads it (test/hooks/hook-modules.test.ts).
 */
/** What a comment says, read from its Markdown. */
export interface CommentText {
  /** The prose: paragraphs, headings, list items and code spans, without quotes, code blocks or HTML. */
  readonly prose: string;
  /** The contents of ```suggestion``` fences (what the reviewer proposes the lines become). */
  readonly suggestions: readonly string[];
  /** Quoted text (`> …`). */
  readonly quotes: readonly string[];
  /** Code blocks other than suggestions. */
  readonly code: readonly string[];
}

interface MdNode {
  readonly type: string;
  readonly value?: string;
  readonly lang?: string | null;
  readonly alt?: string | null;
  readonly children?: readonly MdNode[];
}

type Parse = (text: string) => MdNode;
let parser: Parse | null = null;

/** The remark parser, built on first use. */
async function remark(): Promise<Parse> {
  if (parser === null) {
    const [{ unified }, { default: remarkParse }] = await Promise.all([import('unified'), import('remark-parse')]);
    const processor = unified().use(remarkParse);
    parser = (text) => processor.parse(text) as MdNode;
  }
  return parser;
}

/**
 * Characters and line starts that can make Markdown mean something other than its text, once its
 * simple code spans (one backtick each side, on one line, no space at either end) are set aside.
 * A body with none of them reads as its own text, spans included (test/import/map.test.ts checks
 * this against the parser), so the parse is skipped: most review comments are such plain text,
 * and parsing 10,000 of them would cost seconds.
 */
const MARKUP = /[`*_[\]<>#|~\\!&]|^\s{0,3}(?:[-+=]|\d{1,9}[.)])|^ {4}|\t/m;
const SIMPLE_SPAN = /`[^`\s](?:[^`\n]*[^`\s])?`/g;

/** Whether the parser would read `text` as one run of text and simple code spans. */
function plain(text: string): boolean {
  return !MARKUP.test(text.includes('`') ? text.replace(SIMPLE_SPAN, 'x') : text);
}

/** Reads one comment. `markdown` is the parser (from `loadMarkdown`). Pure given the parser. */
export function readComment(body: string, parse: Parse): CommentText {
  const text = body.replace(/\r\n?/g, '\n');
  if (plain(text)) return { prose: text.replace(/\s+/g, ' ').trim(), suggestions: [], quotes: [], code: [] };
  const tree = parse(text);
  const blocks: string[] = [];
  const suggestions: string[] = [];
  const quotes: string[] = [];
  const code: string[] = [];
  const inline = (n: MdNode): string => {
    switch (n.type) {
      case 'text':
        return n.value ?? '';
      case 'inlineCode':
        return `\`${n.value ?? ''}\``;
      case 'break':
        return ' ';
      case 'image':
        return n.alt ?? '';
      case 'html':
        return '';
      default:
        return (n.children ?? []).map(inline).join('');
    }
  };
  const block = (n: MdNode): void => {
    switch (n.type) {
      case 'code':
        (n.lang === 'suggestion' ? suggestions : code).push(n.value ?? '');
        return;
      case 'blockquote':
        quotes.push((n.children ?? []).map(inline).join(' ').trim());
        return;
      case 'html':
      case 'thematicBreak':
      case 'definition':
        return;
      case 'paragraph':
      case 'heading':
      case 'tableCell': {
        const t = inline(n).replace(/\s+/g, ' ').trim();
        if (t !== '') blocks.push(t);
        return;
      }
      default:
        for (const c of n.children ?? []) block(c);
    }
  };
  block(tree);
  return { prose: blocks.join(' '), suggestions, quotes, code };
}

/** Loads the parser (once) and returns the reader bound to it. */
export async function loadMarkdown(): Promise<(body: string) => CommentText> {
  const parse = await remark();
  return (body) => readComment(body, parse);
}

/** For tests: whether the parser has been loaded in this process. */
export function markdownLoaded(): boolean {
  return parser !== null;
}
