/**
 * Promotion (docs/contracts/compiler.md#promotion; docs/compiler.md#what-it-does, step 1): the canonical registry entry per
 * `dedup_key` becomes `.agents/findings/<id>.md` when it is active and has no artifact yet. An
 * existing artifact is the source of truth; only lifecycle changes (retired, superseded) flow
 * from the registry into it. Pure.
 */
import { compareStrings, diagnostic, type Diagnostic } from '../src/diagnostics.js';
import { artifactPath, Layout } from '../src/layout.js';
import { latestById, type RegistryLine } from '../src/registry/reader.js';
import type { ArtifactFrontMatter, RegistryEntry } from '../src/types.js';
import { inlineText, listText, renderTemplate, template, yamlValue } from './render.js';

/**
 * The canonical entry per dedup_key: the first `active` line with the key, else the last line
 * with it — the same choice as the registry writer and ranking (src/registry/document.ts
 * `byDedupKey`). Several lines per key only appear after `merge=union` or when `findings retire`
 * retired one of them; retiring one line must not retire the key's active finding. If two keys
 * then share an id, the later line wins and the other is reported.
 */
export function canonicalEntries(lines: readonly RegistryLine[]): { entries: RegistryLine[]; diagnostics: Diagnostic[] } {
  const byKey = new Map<string, RegistryLine>();
  // An appended line with the same id is that finding's newer state (docs/registry.md
  // "Appended updates"); readRegistry already keeps only it, this holds for any caller.
  for (const l of latestById(lines)) {
    const held = byKey.get(l.entry.dedup_key);
    if (held === undefined || held.entry.status !== 'active') byKey.set(l.entry.dedup_key, l);
  }
  const byId = new Map<string, RegistryLine>();
  const diagnostics: Diagnostic[] = [];
  for (const l of [...byKey.values()].sort((a, b) => a.line - b.line)) {
    const prev = byId.get(l.entry.id);
    if (prev) {
      diagnostics.push(
        diagnostic({
          file: Layout.registry,
          line: prev.line,
          severity: 'warning',
          ruleId: 'compiler/duplicate-id',
          message: `id "${l.entry.id}" is also used on line ${l.line} with another dedup_key; line ${l.line} is used`,
        }),
      );
    }
    byId.set(l.entry.id, l);
  }
  return { entries: [...byId.values()].sort((a, b) => compareStrings(a.entry.id, b.entry.id)), diagnostics };
}

/** Front matter a registry entry is promoted to (the fields of templates/finding.md). */
export function promotedFrontMatter(e: RegistryEntry): ArtifactFrontMatter {
  return {
    id: e.id,
    type: 'finding',
    version: 1,
    date: e.date,
    source_skill: e.source.skill,
    source_artifact: e.source.file,
    title: e.pattern,
    summary: e.pattern,
    pattern: e.pattern,
    detection_question: e.detection_question,
    checklist_item: e.checklist_item,
    severity: e.severity,
    detectability: 'advisory',
    status: e.status,
    compiler_targets: ['plan', 'pre-mortem'],
    scope_tags: scopeTags(e),
    dedup_key: e.dedup_key,
    applicable_when: [...e.applicable_when],
    applicable_languages: [...e.applicable_languages],
    tier: e.tier,
    confidence: e.confidence,
    ttl_days: e.ttl_days,
  };
}

function scopeTags(e: RegistryEntry): string[] {
  return [...new Set(e.applicable_when)].sort(compareStrings);
}

/**
 * The Markdown of a promoted artifact. Telemetry (`hit_count`, `last_cited`) stays in the
 * registry: it changes on every citation, and an artifact is never rewritten after promotion.
 */
/**
 * The YAML text of an artifact this module rendered: from the line after the opening `---` to the
 * closing `---` line. The template's front matter holds no other line starting with `---` (every
 * value is a quoted scalar or a flow list), so the first "\n---" is its close; a test holds this
 * to what readFrontMatter reads. It spares gray-matter 10,000 calls in a cold compile. Pure.
 */
export function promotedYaml(text: string): string {
  return text.slice(text.indexOf('\n') + 1, text.indexOf('\n---', 3) + 1);
}

/** `fm`: the entry's promoted front matter when the caller has it already (compile keeps it as the finding's data). */
export function renderPromotedArtifact(e: RegistryEntry, fm: ArtifactFrontMatter = promotedFrontMatter(e)): string {
  return renderTemplate(template('finding'), {
    id: yamlValue(fm.id),
    date: yamlValue(fm.date),
    source_skill: yamlValue(fm.source_skill),
    source_artifact: yamlValue(fm.source_artifact),
    title: yamlValue(fm.title),
    summary: yamlValue(fm.summary),
    pattern: yamlValue(fm.pattern),
    detection_question: yamlValue(fm.detection_question),
    checklist_item: yamlValue(fm.checklist_item),
    severity: yamlValue(fm.severity),
    status: yamlValue(fm.status),
    scope_tags: yamlValue(fm.scope_tags),
    dedup_key: yamlValue(fm.dedup_key),
    applicable_when: yamlValue(fm.applicable_when),
    applicable_languages: yamlValue(fm.applicable_languages),
    tier: yamlValue(e.tier),
    confidence: yamlValue(e.confidence),
    ttl_days: String(e.ttl_days),
    title_text: inlineText(fm.title),
    summary_text: inlineText(fm.summary),
    pattern_text: inlineText(fm.pattern),
    detection_question_text: inlineText(fm.detection_question),
    checklist_item_text: inlineText(fm.checklist_item),
    work_shapes_text: listText(fm.applicable_when),
    languages_text: listText(fm.applicable_languages),
    scope_tags_text: listText(fm.scope_tags),
    status_text: inlineText(fm.status),
    confidence_text: inlineText(e.confidence),
    source_repo_text: inlineText(e.source.repo),
    source_session_text: inlineText(e.source.session),
    source_skill_text: inlineText(e.source.skill),
    source_file_text: inlineText(e.source.file),
  });
}

export const promotedPath = (e: RegistryEntry): string => artifactPath(e.id);

/**
 * Carries a registry lifecycle change into an existing artifact's text: rewrites the top-level
 * `status:` line (and sets `superseded_by:`), and the body's `- Status:` line when there is one.
 * Everything else is left byte for byte. Returns null when the front matter has no top-level
 * `status:` line to rewrite. Pure.
 */
export function carryLifecycle(
  text: string,
  closeLine: number,
  status: 'retired' | 'superseded',
  supersededBy: string | null,
): string | null {
  const lines = text.split('\n');
  const fmEnd = closeLine - 1; // index of the closing fence
  let statusAt = -1;
  let supersededAt = -1;
  for (let i = 1; i < fmEnd; i += 1) {
    if (/^status\s*:/.test(lines[i]!)) statusAt = i;
    if (/^superseded_by\s*:/.test(lines[i]!)) supersededAt = i;
  }
  if (statusAt === -1) return null;
  const eol = (i: number): string => (lines[i]!.endsWith('\r') ? '\r' : '');
  lines[statusAt] = `status: ${yamlValue(status)}${eol(statusAt)}`;
  let bodyFrom = fmEnd + 1;
  if (status === 'superseded' && supersededBy !== null) {
    const line = `superseded_by: ${yamlValue(supersededBy)}`;
    if (supersededAt !== -1) lines[supersededAt] = `${line}${eol(supersededAt)}`;
    else {
      lines.splice(statusAt + 1, 0, `${line}${eol(statusAt)}`);
      bodyFrom += 1;
    }
  }
  for (let i = bodyFrom; i < lines.length; i += 1) {
    if (/^- Status: /.test(lines[i]!)) {
      lines[i] = `- Status: ${status}${eol(i)}`;
      break;
    }
  }
  return lines.join('\n');
}
