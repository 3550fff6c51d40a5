/** `findings check [--staged | --all | --from-ref A --to-ref B]`: apply the constraint index (issue 4). */
import { hasErrors } from '../../diagnostics.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { mergeBase } from '../../git-hooks.js';
import { resolveCommit } from '../../git.js';
import { checkConstraints, parseSkip } from '../../../hooks/check.js';
import type { CheckMode } from '../../../hooks/sources.js';
import type { CliIo } from '../io.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveGitRoot, type CommonOptions } from '../options.js';

interface CheckOpts extends CommonOptions {
  staged?: boolean;
  all?: boolean;
  fromRef?: string;
  toRef?: string;
}

const FORMATS = ['stylish', 'json', 'sarif', 'github'] as const;

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand('check', 'Apply the constraint index to staged files (default), every tracked file, or the files changed between two commits.', io)
    .option('--staged', 'check the content in the index (default)')
    .option('--all', 'check every tracked file (index content), with the working-tree constraint index')
    .option('--from-ref <ref>', 'check the files changed since this commit (their merge base with --to-ref)')
    .option('--to-ref <ref>', 'the commit whose files and index are checked (default HEAD; needs --from-ref)');
  addRootOption(cmd);
  addFormatOptions(cmd, FORMATS);
  cmd.action(async (opts: CheckOpts) => {
    const out = Output.from(io, opts, FORMATS);
    const root = await resolveGitRoot(opts.root, io);
    const mode = await modeOf(root, opts);
    const skip = parseSkip(io.env);
    skip.ids.delete('all');
    const outcome = await checkConstraints(root, mode, { skip: skip.ids, bypass: null });
    for (const line of outcome.lines) out.info(line);
    if (outcome.status === 'no-index') {
      out.info(`findings check: no constraint index (${'.agents/constraints/index.json'} in the ${outcome.collected.indexSource}); nothing to check`);
      await out.diagnostics([]);
      return;
    }
    await out.diagnostics(outcome.diagnostics);
    if (outcome.status === 'invalid-index') {
      out.warn(`findings check: the constraint index (in the ${outcome.collected.indexSource}) is invalid; fix it or recompile with \`npx findings-compile\``);
      exit = ExitCode.Usage;
      return;
    }
    if (!out.machine && outcome.diagnostics.length === 0) {
      out.info(`findings check: ${outcome.collected.files.length} file(s), ${outcome.constraints} constraint(s), no problems`);
    }
    exit = hasErrors(outcome.diagnostics) ? ExitCode.Failed : ExitCode.Ok;
  });
  await parseArgs(cmd, args);
  return exit;
}

async function modeOf(root: string, opts: CheckOpts): Promise<CheckMode> {
  const range = opts.fromRef !== undefined || opts.toRef !== undefined;
  if ([opts.staged === true, opts.all === true, range].filter(Boolean).length > 1) {
    throw new UsageError('choose one of --staged, --all, or --from-ref/--to-ref');
  }
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
