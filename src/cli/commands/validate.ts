/** `findings validate [paths…]`: the strict check used at commit time and in CI. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Diagnostic, hasErrors } from '../../diagnostics.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { displayPath, toPosix } from '../../paths.js';
import { worktreeFiles } from '../../repo-files.js';
import { classifyPath, validateRepository, validateTargets, type ValidateTarget } from '../../validate/index.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import type { CommonOptions } from '../options.js';
import { applyWarningOptions, type WarningOptions } from '../warnings.js';

const KNOWN_FILES =
  'registry .jsonl, artifact .md, constraints/index.json, measurements/*.json, reviews/*.jsonl, tasks/*.json, roles.json, ' +
  'candidates.jsonl, sources.json, config.json';

export const run = defineCommand('validate', 'Check registry lines, promoted artifacts, the constraint index and review ledgers.', {
  declare: (cmd) => cmd.argument('[paths...]', 'files to check (default: the repository layout)'),
  root: 'any',
  formats: ['stylish', 'json', 'sarif', 'github'],
  warnings: true,
  action: async ({ io, opts, out, repoRoot }: CommandContext<CommonOptions & WarningOptions>, paths: string[]) => {
    const root = await repoRoot();
    const ctx = { root, files: worktreeFiles(root), commit: null };
    let diagnostics: Diagnostic[];
    if (paths.length === 0) {
      diagnostics = await validateRepository(ctx);
    } else {
      const targets: ValidateTarget[] = [];
      for (const p of paths) {
        const abs = path.resolve(io.cwd, p);
        const rel = path.relative(root, abs);
        const file = rel.startsWith('..') || path.isAbsolute(rel) ? toPosix(p) : displayPath(root, abs);
        const kind = classifyPath(file);
        if (kind === null) throw new UsageError(`${file}: not a file validate knows (${KNOWN_FILES})`);
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
    return hasErrors(diagnostics) || verdict.tooMany ? ExitCode.Failed : ExitCode.Ok;
  },
});
