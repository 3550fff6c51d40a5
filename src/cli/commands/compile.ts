/**
 * `findings compile [--check] [--root <dir>] [--format stylish|json]` (alias `findings-compile`):
 * promote findings, compile planning rules, pre-mortem checks and the constraint index.
 * Exit 0 compiled (warnings allowed); 1 an artifact is invalid or `--check` found drift;
 * 2 bad usage or an unreadable folder.
 */
import { countBySeverity, hasErrors } from '../../diagnostics.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { Layout } from '../../layout.js';
import type { FormatContext } from '../../output/format.js';
import type { CompileRun } from '../../../compiler/run.js';
import { constraintsOf } from '../index-at.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import type { CommonOptions } from '../options.js';

interface CompileOptions extends CommonOptions {
  check?: boolean;
}

export const run = defineCommand('compile', 'Promote findings and compile planning rules, pre-mortem checks and the constraint index.', {
  declare: (cmd) => cmd.option('--check', 'write nothing; exit 1 listing every compiled file that is missing, stale or orphaned'),
  root: 'any',
  formats: ['stylish', 'json', 'markdown'],
  action: async ({ opts, out, repoRoot }: CommandContext<CompileOptions>) => {
    if (out.format === 'markdown' && !opts.check)
      throw new UsageError('--format markdown goes with --check (a report of what is not current)');
    const root = await repoRoot();
    // The compiler (and unified) load only when this command runs (docs/stack-pitfalls.md#9).
    const { runCompile } = await import('../../../compiler/run.js');
    const check = Boolean(opts.check);
    const result = await runCompile(root, { check });
    const drift = check && result.changes.length > 0;
    const exit = hasErrors(result.diagnostics) || drift ? ExitCode.Failed : ExitCode.Ok;
    if (out.format === 'markdown') {
      await out.diagnostics(result.diagnostics, await markdownReport(root, result));
      return exit;
    }
    if (out.machine) {
      out.json({ diagnostics: result.diagnostics, changes: result.changes, kept: result.kept });
      return exit;
    }
    await out.diagnostics(result.diagnostics);
    const width = Math.max(0, ...result.changes.map((c) => c.action.length));
    // One write for every line: a cold compile lists ~29,000 files, and a write per line to a pipe costs a system call each.
    if (result.changes.length > 0) out.info(result.changes.map((c) => `${c.action.padEnd(width)}  ${c.path}`).join('\n'));
    const counts = countBySeverity(result.diagnostics);
    const problems = `${counts.error} error${counts.error === 1 ? '' : 's'}, ${counts.warning} warning${counts.warning === 1 ? '' : 's'}`;
    // Entries no artifact here wrote (upstream's compiler, a hand edit) are kept, and said so.
    if (result.kept.length > 0)
      out.info(
        `kept  ${result.kept.length} constraint${result.kept.length === 1 ? '' : 's'} no finding here compiles (kept as they are): ${result.kept.join(', ')}`,
      );
    if (check) {
      const n = result.changes.length;
      out.info(
        drift
          ? `findings compile --check: ${n} compiled file${n === 1 ? ' is' : 's are'} not current (${problems}); run \`findings compile\``
          : `findings compile --check: all compiled files are current (${problems})`,
      );
      return exit;
    }
    const n = (a: string): number => result.changes.filter((c) => c.action === a).length;
    out.info(`findings compile: ${n('created')} created, ${n('updated')} updated, ${n('removed')} removed (${problems})`);
    return exit;
  },
});

/**
 * `compile --check --format markdown`: the drifted files as a section, and the constraints that
 * compiling would add or change compared with the index in the working tree.
 */
async function markdownReport(root: string, result: CompileRun): Promise<Omit<FormatContext, 'paint'>> {
  const { cell, code, constraintChanges } = await import('../../output/markdown.js');
  const worktree = (file: string): Promise<string | null> => readFile(path.join(root, file), 'utf8').catch(() => null);
  const current = constraintsOf({ index: await worktree(Layout.constraintIndex), extended: await worktree(Layout.extendedIndex) });
  const compiled = constraintsOf({ index: result.compiledIndex ?? null, extended: result.compiledExtended ?? null });
  const n = result.changes.length;
  const sections =
    n === 0
      ? []
      : [
          [
            '#### Compiled files that are not current',
            '',
            '| file | state |',
            '| --- | --- |',
            ...result.changes.map((c) => `| ${code(c.path)} | ${cell(c.action)} |`),
            '',
            'Run `npx findings-compile` and commit the result.',
          ].join('\n'),
        ];
  return {
    constraints: compiled,
    markdown: {
      title: 'findings compile --check',
      ...(n === 0
        ? { scope: 'all compiled files are current' }
        : { failure: `${n} compiled file${n === 1 ? ' is' : 's are'} not current` }),
      sections,
      changes: constraintChanges(current, compiled),
    },
  };
}
