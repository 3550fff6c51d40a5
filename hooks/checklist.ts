/**
 * The checklist item under a constraint's diagnostics. The index no longer carries it (upstream's
 * strict decoder has no such key; docs/compiler.md "The constraint index"), so it is read from the
 * finding artifact — only when a hit is reported, and from the same source the gate read the
 * index from (staged content, a commit, or the working tree), so a commit without hits pays
 * nothing for it.
 */
import { fsPromises } from '../src/lazy-builtins.js';
import path from 'node:path';
import type { Diagnostic } from '../src/diagnostics.js';
import { readObjects } from '../src/git/core.js';
import type { ConstraintIndex } from '../src/types.js';
import { constraintRuleId } from './gate.js';

/** Reads a repository path from the source an index was read from (`index`, `worktree`, or a commit). */
async function readFromSource(root: string, source: string, rel: string): Promise<string | null> {
  try {
    if (source === 'worktree') return await fsPromises().readFile(path.join(root, rel), 'utf8');
    const name = source === 'index' ? `:${rel}` : `${source}:${rel}`;
    const blob = (await readObjects(root, [name])).get(name);
    return blob ? blob.toString('utf8') : null;
  } catch {
    return null;
  }
}

/** `checklist_item` of an artifact's front matter, or null. */
async function checklistOf(text: string, file: string): Promise<string | null> {
  const { readFrontMatter } = await import('../src/frontmatter.js');
  const fm = readFrontMatter(text, file);
  if (!fm.ok) return null;
  const v = (fm.data as Record<string, unknown>)['checklist_item'];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** Adds `checklist: …` (before the other notes) to each constraint diagnostic that lacks one. */
export async function withChecklistNotes(
  diagnostics: readonly Diagnostic[],
  index: ConstraintIndex,
  root: string,
  source: string,
): Promise<Diagnostic[]> {
  const byRule = new Map(index.constraints.map((c) => [constraintRuleId(c.id), c]));
  const wanted = new Set(
    diagnostics.map((d) => byRule.get(d.ruleId)).filter((c) => c !== undefined && !c.checklist_item && c.source_artifact !== ''),
  );
  if (wanted.size === 0) return [...diagnostics];
  const items = new Map<string, string>();
  for (const c of wanted) {
    const text = await readFromSource(root, source, c!.source_artifact);
    const item = text === null ? null : await checklistOf(text, c!.source_artifact);
    if (item !== null) items.set(constraintRuleId(c!.id), item);
  }
  return diagnostics.map((d) => {
    const item = items.get(d.ruleId);
    if (item === undefined || (d.notes ?? []).some((n) => n.startsWith('checklist: '))) return d;
    return { ...d, notes: [`checklist: ${item}`, ...(d.notes ?? [])] };
  });
}
