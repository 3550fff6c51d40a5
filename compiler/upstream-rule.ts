/**
 * How the agentops tooling reads a compiled planning rule or pre-mortem check, and when a rule
 * file already says what this compiler would write (docs/compiler.md "Sharing `.agents/` with
 * the agentops tooling"). Pure.
 *
 * Upstream's reader (test/fixtures/agentops-tooling/INTEROP.md "Compiled rule files") drops the
 * front matter, headings, the line `Prevent this known failure mode:` and `- Source:` items, then
 * keeps the first three `- ` items: pattern, question, action. Any other plain line met before
 * the first item is taken as the first item — which is why the template has no introduction
 * sentence of its own.
 *
 * The front matter is split here by hand, not by src/frontmatter.ts: this is upstream's reader
 * (it closes at the first line that is `---` once trimmed), imitated on purpose. `yaml` is
 * required only when a file on disk differs from the rendered one (docs/stack-pitfalls.md#9).
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

const require = createRequire(import.meta.url);

const PREAMBLE = 'Prevent this known failure mode';

/**
 * Splits off a front matter that opens on the very first line (`---\n`) and closes on the next
 * line that is `---` once trimmed, as upstream strips it.
 */
function splitFrontMatter(text: string): { yaml: string | null; body: string } {
  if (!text.startsWith('---\n')) return { yaml: null, body: text };
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i += 1) {
    if (lines[i]!.trim() === '---') return { yaml: lines.slice(1, i).join('\n'), body: lines.slice(i + 1).join('\n') };
  }
  return { yaml: null, body: text };
}

/** The (at most three) items upstream's reader takes from a rule file: pattern, question, action. */
export function readRuleAsUpstream(text: string): string[] {
  const items: string[] = [];
  for (const line of splitFrontMatter(text).body.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(PREAMBLE)) continue;
    if (trimmed.startsWith('- ')) {
      const item = trimmed.slice(2).trim();
      if (!item.startsWith('Source:')) items.push(item);
    } else if (items.length === 0) {
      items.push(trimmed);
    }
    if (items.length >= 3) break;
  }
  return items;
}

/** The front matter as data, or null when there is none or it is not a YAML mapping. */
function frontMatterData(text: string): Record<string, unknown> | null {
  const { yaml } = splitFrontMatter(text);
  if (yaml === null) return null;
  try {
    const { parse } = require('yaml') as typeof Yaml;
    const data: unknown = parse(yaml, { version: '1.2', schema: 'core', customTags: [], maxAliasCount: 0 });
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The front-matter keys that belong to a rule's meaning besides its items: which finding it is,
 * and when it applies. Quoting, key order, spacing and keys this compiler does not write do not
 * count; neither does the heading (upstream's reader drops it, and its title may be worded
 * differently).
 */
const MEANING_KEYS = ['id', 'finding_id', 'status', 'applicable_when', 'applicable_languages'] as const;

/**
 * True when `existing` (e.g. written by the agentops compiler) means what `wanted` (rendered by
 * this compiler) means: the same three items as upstream reads them, and the same id, status and
 * applicability in the front matter. Such a file is kept byte for byte, so two tools compiling
 * one folder do not rewrite each other's files.
 */
export function sameRuleMeaning(existing: string, wanted: string): boolean {
  const a = readRuleAsUpstream(existing);
  const b = readRuleAsUpstream(wanted);
  if (a.length !== b.length || a.some((item, i) => item !== b[i])) return false;
  const fa = frontMatterData(existing);
  const fb = frontMatterData(wanted);
  if (fa === null || fb === null) return false;
  return MEANING_KEYS.every((k) => JSON.stringify(fa[k]) === JSON.stringify(fb[k]));
}
