/** `findings check [--staged | --worktree] [paths…] | --all | --from-ref A --to-ref B`: apply the constraint index (docs/hooks.md). */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { hasErrors, unsuppressed } from '../../diagnostics.js';
import { toPosix } from '../../paths.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { mergeBase } from '../../git/hooks.js';
import { resolveCommit } from '../../git/core.js';
import { checkConstraints } from '../../../hooks/check.js';
import { parseSkip } from '../../../hooks/skip.js';
import { constraintTexts, type CheckMode } from '../../../hooks/sources.js';
import { constraintsAt, constraintsOf } from '../index-at.js';
import type { ConstraintChange } from '../../output/markdown.js';
import { progressDelayMs, progressReporter } from '../../output/progress.js';
import type { ConstraintEntry } from '../../types.js';
import type { CliIo } from '../io.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import type { CommonOptions } from '../options.js';
import { applyWarningOptions, type WarningOptions } from '../warnings.js';

interface CheckOpts extends CommonOptions, WarningOptions {
  staged?: boolean;
  worktree?: boolean;
  all?: boolean;
  fromRef?: string;
  toRef?: string;
  reportSuppressions?: boolean;
}

const FORMATS = ['stylish', 'json', 'sarif', 'github', 'markdown'] as const;

export const run = defineCommand(
  'check',
  'Apply the constraint index to staged files (default), named files, every tracked file, or the files changed between two commits.',
  {
    declare: (cmd) =>
      cmd
        .argument(
          '[paths...]',
          'check only these files (or folders): their staged content, or the working tree with --worktree (for lint-staged and editors)',
        )
        .option('--staged', 'check the content in the index (default)')
        .option('--worktree', 'with paths: check the files as they are on disk, with the working-tree constraint index')
        .option('--all', 'check every tracked file (index content), with the working-tree constraint index')
        .option('--from-ref <ref>', 'check the files changed since this commit (their merge base with --to-ref)')
        .option('--to-ref <ref>', 'the commit whose files and index are checked (default HEAD; needs --from-ref)')
        .option(
          '--report-suppressions',
          'list every hit an inline `findings-ignore` marker or a baseline suppresses, with its reason (stylish; JSON and SARIF always carry them)',
        ),
    root: 'git',
    formats: FORMATS,
    warnings: true,
    action: async ({ io, opts, out, repoRoot }: CommandContext<CheckOpts>, paths: string[]) => {
      const root = await repoRoot();
      const mode = await modeOf(
        root,
        opts,
        paths.map((p) => repoPath(root, p, io)),
      );
      const skip = parseSkip(io.env);
      skip.ids.delete('all');
      // A long check shows its progress on a TTY, after the delay (cleared before the report); the same reporter as measure's.
      const progress =
        io.stderr.isTTY === true
          ? progressReporter(io.stderr, 0, { verb: 'checking', unit: 'files', afterMs: progressDelayMs(io.env) })
          : undefined;
      const outcome = await checkConstraints(root, mode, {
        skip: skip.ids,
        bypass: null,
        ...(progress ? { onProgress: (done: number, total: number) => progress.update(done, total) } : {}),
      });
      progress?.end();
      for (const line of outcome.lines) out.info(line);
      if (outcome.status === 'no-index') {
        const none = `no constraint index (${'.agents/constraints/index.json'} in the ${outcome.collected.contentSource}); nothing to check`;
        out.info(`findings check: ${none}`);
        await out.diagnostics([], { markdown: { title: 'findings check', changes: null, scope: none } });
        return ExitCode.Ok;
      }
      const verdict = applyWarningOptions(outcome.diagnostics, opts);
      // Rule metadata (SARIF, Markdown) comes from the same index the gate applied.
      const constraints = out.machine && outcome.status === 'checked' ? firstPerId(outcome.judged) : [];
      const markdown =
        out.format === 'markdown'
          ? {
              title: 'findings check',
              scope:
                outcome.status === 'checked'
                  ? `${plural(outcome.collected.files.length, 'file')}, ${plural(outcome.constraints, 'constraint')}`
                  : 'invalid constraint index',
              changes:
                outcome.status === 'checked'
                  ? await rangeChanges(root, mode, constraintsOf(constraintTexts(outcome.collected).after))
                  : null,
              sections: await preventedSections(root, constraints),
            }
          : undefined;
      await out.diagnostics(verdict.shown, {
        constraints,
        listSuppressed: opts.reportSuppressions === true,
        ...(markdown ? { markdown } : {}),
      });
      if (outcome.status === 'invalid-index') {
        out.warn(
          `findings check: the constraint index (in the ${outcome.collected.contentSource}) is invalid; fix it or recompile with \`npx findings-compile\``,
        );
        return ExitCode.Usage;
      }
      if (!out.machine && unsuppressed(outcome.diagnostics).length === 0) {
        out.info(`findings check: ${outcome.collected.files.length} file(s), ${outcome.constraints} constraint(s), no problems`);
      }
      if (verdict.tooMany) out.warn(`findings check: ${verdict.tooMany}`);
      return hasErrors(outcome.diagnostics) || verdict.tooMany ? ExitCode.Failed : ExitCode.Ok;
    },
  },
);

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The constraints a change brings, for the Markdown report: a range compares the index at its two
 * ends; staged content compares HEAD with the index. Whole-tree modes have no "before" (null).
 */
async function rangeChanges(root: string, mode: CheckMode, after: readonly ConstraintEntry[]): Promise<ConstraintChange[] | null> {
  const { constraintChanges } = await import('../../output/markdown.js');
  if (mode.kind === 'range') return constraintChanges(await constraintsAt(root, mode.from), after);
  if (mode.kind === 'staged' || (mode.kind === 'paths' && !mode.worktree)) {
    const head = await resolveCommit(root, 'HEAD');
    return constraintChanges(head === null ? [] : await constraintsAt(root, head), after);
  }
  return null;
}

/**
 * A named path as a repository-relative one. lint-staged passes absolute paths, editors relative
 * ones; the folder part is resolved through symlinks (the root is git's real path), the file
 * itself is not (a symlink is judged by its link text).
 */
function repoPath(root: string, named: string, io: CliIo): string {
  const abs = path.resolve(io.cwd, named);
  let dir = path.dirname(abs);
  try {
    dir = realpathSync(dir);
  } catch {
    // a folder that does not exist: reported as unreadable by the check itself
  }
  const rel = path.relative(root, path.join(dir, path.basename(abs)));
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new UsageError(`${named}: outside the repository (${toPosix(root)})`);
  return rel === '' ? '.' : toPosix(rel);
}

async function modeOf(root: string, opts: CheckOpts, paths: string[]): Promise<CheckMode> {
  const range = opts.fromRef !== undefined || opts.toRef !== undefined;
  if ([opts.staged === true || opts.worktree === true, opts.all === true, range].filter(Boolean).length > 1) {
    throw new UsageError('choose one of --staged, --all, or --from-ref/--to-ref');
  }
  if (opts.staged && opts.worktree) throw new UsageError('choose --staged or --worktree');
  if (paths.length > 0) {
    if (opts.all || range) throw new UsageError('named paths go with --staged (default) or --worktree, not --all or --from-ref/--to-ref');
    return { kind: 'paths', paths: [...new Set(paths)], worktree: opts.worktree === true };
  }
  if (opts.worktree) throw new UsageError('--worktree needs the paths to check (e.g. `findings check --worktree src/a.ts`)');
  if (opts.all) return { kind: 'all' };
  if (!range) return { kind: 'staged' };
  if (opts.fromRef === undefined) throw new UsageError('--to-ref needs --from-ref');
  const to = await resolveCommit(root, opts.toRef ?? 'HEAD');
  if (to === null) throw new UsageError(`--to-ref ${opts.toRef ?? 'HEAD'}: not a commit`);
  const from = await resolveCommit(root, opts.fromRef);
  if (from === null) throw new UsageError(`--from-ref ${opts.fromRef}: not a commit`);
  // A pull request's changes are those since the branches diverged, not the base's later commits.
  return { kind: 'range', from: (await mergeBase(root, from, to)) ?? from, to };
}

/** The section of review comments each applied constraint would have prevented (docs/import.md), from its measurement. */
async function preventedSections(root: string, constraints: readonly ConstraintEntry[]): Promise<string[]> {
  const [{ readMeasurement }, { preventedMarkdown }] = await Promise.all([
    import('../../lifecycle/store.js'),
    import('../../import/prevented.js'),
  ]);
  const rows = [];
  for (const c of constraints) {
    const m = await readMeasurement(root, c.id);
    if (m.kind === 'ok' && m.measurement.comments_prevented !== undefined)
      rows.push({ id: c.id, title: c.title, prevented: m.measurement.comments_prevented });
  }
  const section = preventedMarkdown(rows);
  return section === null ? [] : [section];
}

/** One entry per id, the first one (the index after the change comes before entries held from before it). Pure. */
function firstPerId(entries: readonly ConstraintEntry[]): ConstraintEntry[] {
  const seen = new Set<string>();
  return entries.filter((c) => {
    if (seen.has(c.id)) return false;
    seen.add(c.id);
    return true;
  });
}
