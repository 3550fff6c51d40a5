/**
 * The compiler's front-matter reader: unified + remark-parse + remark-frontmatter find the
 * front-matter node and its position (ARCHITECTURE.md "Front matter"); the YAML inside is parsed
 * by the shared YAML 1.2 rules of src/frontmatter.ts, so this reader and the fast one used by
 * `findings validate` agree on every file.
 *
 * Speed: the processor is built once per process, and remark is given only the leading block
 * that can be front matter (up to the first closing-fence line). remark-frontmatter only ever
 * looks at the start of a document, so the body cannot change the answer, and parsing it would
 * cost ~0.5 ms per artifact (10,000 artifacts in the benchmark).
 */
import remarkFrontmatter from 'remark-frontmatter';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { diagnostic } from '../src/diagnostics.js';
import { decodeText, findFence, parseFrontMatterYaml, yamlBetweenFences, type FrontMatterResult } from '../src/frontmatter.js';

type Processor = { parse(text: string): { children: { type: string; position?: { start: { line: number }; end: { line: number } } }[] } };

let processor: Processor | null = null;
function remark(): Processor {
  processor ??= unified().use(remarkParse).use(remarkFrontmatter, ['yaml']) as unknown as Processor;
  return processor;
}

/** Reads a Markdown file's YAML front matter with remark. Pure (modulo the memoised processor). */
export function readFrontMatterRemark(bytes: Buffer | string, file: string): FrontMatterResult {
  const decoded = decodeText(bytes, file);
  if (!decoded.ok) return { ok: false, diagnostics: decoded.diagnostics };
  const text = decoded.text;
  // The fence language and unclosed-fence rules are shared with the fast reader: `---js` must be
  // a refusal with a reason, not just "no front matter".
  const fence = findFence(text, file);
  if (!fence.ok) return fence.result;
  const tree = remark().parse(text.slice(0, fence.fence.end));
  const node = tree.children[0];
  if (node?.type !== 'yaml' || node.position?.start.line !== 1 || node.position.end.line !== fence.fence.closeLine) {
    return {
      ok: false,
      diagnostics: [
        diagnostic({
          file,
          line: 1,
          column: 1,
          ruleId: 'artifact/unclosed-front-matter',
          message: 'front matter opened on line 1 is not a closed YAML block',
        }),
      ],
    };
  }
  return parseFrontMatterYaml(yamlBetweenFences(text, fence.fence), 2, file);
}
