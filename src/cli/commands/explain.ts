/**
 * `findings explain <id> [--format stylish|json]` (docs/reuse.md): the chain from a
 * constraint back to the review that taught it. Exit 0 when the id is known, 1 when nothing has
 * that id (or a short review id is ambiguous), 2 on bad usage.
 */
import { currentConstraintIds } from '../../constraints/legacy-ids.js';
import { ExitCode } from '../../exit-codes.js';
import { worktreeFiles } from '../../repo-files.js';
import { explain } from '../../reuse/explain/chain.js';
import { loadExplainSources } from '../../reuse/explain/load.js';
import { renderExplainJson, renderExplainText, type ConstraintExtras } from '../../reuse/explain/render.js';
import type { CliIo } from '../io.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveRoot, type CommonOptions } from '../options.js';

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand(
    'explain',
    'Trace a constraint, finding, registry entry, candidate class or review finding back through every link, with file and line.',
    io,
  ).argument(
    '<id>',
    'constraint id (the finding id; an old c-… id is accepted), finding/registry id, ' +
      'candidate class key, or review finding id (8 characters, a longer prefix or the full id)',
  );
  addRootOption(cmd);
  addFormatOptions(cmd, ['stylish', 'json']);
  cmd.action(async (givenId: string, opts: CommonOptions) => {
    const out = Output.from(io, opts, ['stylish', 'json']);
    const root = await resolveRoot(opts.root, io);
    const [id] = (await currentConstraintIds(root, [givenId], (l) => io.stderr.write(`${l}\n`))) as [string];
    const sources = await loadExplainSources(worktreeFiles(root));
    const chain = await explain(sources, id);
    const full = { ...chain, diagnostics: [...sources.diagnostics, ...chain.diagnostics] };
    const extras = chain.constraint === null ? {} : await constraintExtras(root, chain.constraint.id);
    if (out.machine) io.stdout.write(renderExplainJson(full, extras));
    else {
      if (chain.matched !== null) io.stdout.write(renderExplainText(full, extras));
      await out.diagnostics(full.diagnostics);
    }
    exit = chain.matched === null ? ExitCode.Failed : ExitCode.Ok;
  });
  await parseArgs(cmd, args);
  return exit;
}

/** Inline suppressions at HEAD and the baseline of a constraint (docs/hooks.md, docs/lifecycle.md). */
async function constraintExtras(root: string, id: string): Promise<ConstraintExtras> {
  const { countSuppressionsAtHead } = await import('../../../hooks/suppression-count.js');
  const { readBaselineFile } = await import('../../lifecycle/baseline.js');
  const { baselinePath, baselineSize } = await import('../../lifecycle/baseline-file.js');
  const read = await readBaselineFile(root, id);
  const baseline = read === null || !read.ok ? null : { file: baselinePath(id), ...baselineSize(read.baseline) };
  return { suppressions: await countSuppressionsAtHead(root, id), baseline };
}
