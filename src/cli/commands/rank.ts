/** `findings rank`: the active findings that matter most for a piece of work (docs/registry.md). */
import { ExitCode, UsageError } from '../../exit-codes.js';
import { formatStylish } from '../../output/stylish.js';
import { readRegistry } from '../../registry/reader.js';
import { DEFAULT_LIMIT, rankEntries, type RankedEntry } from '../../registry/rank.js';
import { stableStringify } from '../../json-stable.js';
import { worktreeFiles } from '../../repo-files.js';
import { WORK_SHAPES } from '../../types.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import { collect, type CommonOptions, listOption } from '../options.js';

interface RankOptions extends CommonOptions {
  when?: string[];
  lang?: string[];
  path?: string[];
  text?: string;
  limit?: string;
}

/** Key order of one `--json` item (docs/registry.md). */
const RANK_KEY_ORDER = [
  'rank',
  'id',
  'severity',
  'category',
  'pattern',
  'detection_question',
  'checklist_item',
  'applicable_when',
  'applicable_languages',
  'dedup_key',
  'match',
  'when',
  'languages',
  'paths',
  'keywords',
];

export function rankJson(ranked: readonly RankedEntry[]): string {
  return stableStringify(
    ranked.map((r, i) => ({
      rank: i + 1,
      id: r.entry.id,
      severity: r.entry.severity,
      category: r.entry.category,
      pattern: r.entry.pattern,
      detection_question: r.entry.detection_question,
      checklist_item: r.entry.checklist_item,
      applicable_when: r.entry.applicable_when,
      applicable_languages: r.entry.applicable_languages,
      dedup_key: r.entry.dedup_key,
      match: { when: r.match.when, languages: r.match.languages, paths: r.match.paths, keywords: r.match.keywords },
    })),
    RANK_KEY_ORDER,
  );
}

function rankText(ranked: readonly RankedEntry[]): string {
  if (ranked.length === 0) return 'no active findings\n';
  return ranked
    .map(
      (r, i) =>
        `${i + 1}. ${r.entry.id}  [${r.entry.severity}]  ${r.entry.pattern}\n   ask:   ${r.entry.detection_question}\n   check: ${r.entry.checklist_item}\n`,
    )
    .join('');
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--limit must be a positive integer (got "${value}")`);
  return Number(value);
}

export const run = defineCommand('rank', 'Rank active findings by severity, scope match and keyword overlap (at most 5 unless --limit).', {
  declare: (cmd) =>
    cmd
      .option('--when <shapes>', `current work shapes, comma-separated or repeated (${WORK_SHAPES.join(', ')})`, collect)
      .option('--lang <languages>', 'languages of the work, comma-separated or repeated', collect)
      .option('--path <paths>', 'paths being changed, comma-separated or repeated', collect)
      .option('--text <goal>', 'goal, plan or review target, for literal keyword overlap')
      .option('--limit <n>', `how many to show (default ${DEFAULT_LIMIT})`),
  root: 'any',
  formats: ['stylish', 'json'],
  action: async ({ io, opts, out, repoRoot }: CommandContext<RankOptions>) => {
    const when = listOption(opts.when);
    const unknown = when.filter((w) => !(WORK_SHAPES as readonly string[]).includes(w));
    if (unknown.length > 0)
      throw new UsageError(`--when: unknown work shape ${unknown.map((u) => `"${u}"`).join(', ')} (one of ${WORK_SHAPES.join(', ')})`);
    const limit = parseLimit(opts.limit);
    const root = await repoRoot();
    const registry = await readRegistry(worktreeFiles(root));
    // Fail-open reader: its warnings go to stderr so stdout stays the ranking (or parseable JSON).
    if (registry.warnings.length > 0) out.warn(formatStylish(registry.warnings, out.errPaint).trimEnd());
    const ranked = rankEntries(
      registry.entries.map((l) => l.entry),
      {
        when,
        languages: listOption(opts.lang),
        paths: listOption(opts.path),
        ...(opts.text === undefined ? {} : { text: opts.text }),
        limit,
      },
    );
    io.stdout.write(out.machine ? rankJson(ranked) : rankText(ranked));
    return ExitCode.Ok;
  },
});
