/** `findings validate [paths…]`: the strict check used at commit time and in CI. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { hasErrors } from '../../diagnostics.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { displayPath, toPosix } from '../../paths.js';
import { worktreeFiles } from '../../repo-files.js';
import { classifyPath, validateRepository, validateTargets, type ValidateTarget } from '../../validate/index.js';
import type { CliIo } from '../io.js';
import { addWarningOptions, applyWarningOptions, type WarningOptions } from '../warnings.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveRoot, type CommonOptions } from '../options.js';

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand('validate', 'Check registry lines, promoted artifacts, the constraint index and review ledgers.', io).argument(
    '[paths...]',
    'files to check (default: the repository layout)',
  );
  addRootOption(cmd);
  addFormatOptions(cmd, ['stylish', 'json', 'sarif', 'github']);
  addWarningOptions(cmd);
  cmd.action(async (paths: string[], opts: CommonOptions & WarningOptions) => {
    const out = Output.from(io, opts, ['stylish', 'json', 'sarif', 'github']);
    const root = await resolveRoot(opts.root, io);
    const ctx = { root, files: worktreeFiles(root), commit: null };
    let diagnostics: Awaited<ReturnType<typeof validateRepository>>;
    if (paths.length === 0) {
      diagnostics = await validateRepository(ctx);
    } else {
      const targets: ValidateTarget[] = [];
      for (const p of paths) {
        const abs = path.resolve(io.cwd, p);
        const rel = path.relative(root, abs);
        const file = rel.startsWith('..') || path.isAbsolute(rel) ? toPosix(p) : displayPath(root, abs);
        const kind = classifyPath(file);
        if (kind === null)
          throw new UsageError(
            `${file}: not a file validate knows (registry .jsonl, artifact .md, constraints/index.json, ` +
              `measurements/*.json, reviews/*.jsonl, tasks/*.json, roles.json, candidates.jsonl, sources.json, config.json)`,
          );
        let text: string;
        try {
          text = await readFile(abs, 'utf8');
        } catch (error) {
          throw new UsageError(`${file}: cannot read (${(error as { code?: string }).code ?? String(error)})`);
        }
        targets.push({ kind, file, text });
      }
      diagnostics = await validateTargets(targets, ctx);
    }
    const verdict = applyWarningOptions(diagnostics, opts);
    await out.diagnostics(verdict.shown);
    if (verdict.tooMany) out.warn(`findings validate: ${verdict.tooMany}`);
    exit = hasErrors(diagnostics) || verdict.tooMany ? ExitCode.Failed : ExitCode.Ok;
  });
  await parseArgs(cmd, args);
  return exit;
}
