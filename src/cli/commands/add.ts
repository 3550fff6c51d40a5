/** `findings add [--file F | -]`: add or merge registry entries by dedup_key (docs/registry.md). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, hasErrors, type Diagnostic } from '../../diagnostics.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { parseAddInput } from '../../registry/input.js';
import { addEntries } from '../../registry/writer.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import { readStdin } from '../io.js';
import type { CommonOptions } from '../options.js';

interface AddOptions extends CommonOptions {
  file?: string;
}

export const run = defineCommand(
  'add',
  'Add registry entries (a JSON object or array) or merge them into the line with the same dedup_key.',
  {
    declare: (cmd) =>
      cmd
        .argument('[source]', '"-" to read standard input (the default)')
        .option('--file <file>', 'read the entries from a file ("-" for standard input)'),
    root: 'any',
    formats: ['stylish', 'json'],
    action: async ({ io, opts, out, repoRoot }: CommandContext<AddOptions>, positional: string | undefined) => {
      if (positional !== undefined && opts.file !== undefined) throw new UsageError('give either --file or "-", not both');
      if (positional !== undefined && positional !== '-')
        throw new UsageError(`unexpected argument "${positional}" (use --file ${positional})`);
      const root = await repoRoot();
      const from = opts.file ?? '-';
      let text: string;
      let source: string;
      if (from === '-') {
        text = await readStdin(io);
        source = '<stdin>';
      } else {
        const abs = path.resolve(io.cwd, from);
        source = displayPath(root, abs).startsWith('..') ? from : displayPath(root, abs);
        try {
          text = await readFile(abs, 'utf8');
        } catch (error) {
          throw new UsageError(`${from}: cannot read (${(error as { code?: string }).code ?? String(error)})`);
        }
      }
      const parsed = parseAddInput(text, source);
      let diagnostics: Diagnostic[];
      if ('diagnostic' in parsed) {
        diagnostics = [parsed.diagnostic];
      } else if (parsed.values.length === 0) {
        diagnostics = [
          diagnostic({ file: source, ruleId: 'registry/empty-input', message: 'no entries to add (an empty array or empty input)' }),
        ];
      } else {
        const result = await addEntries(root, parsed.values, { source });
        diagnostics = result.diagnostics;
        if (!hasErrors(diagnostics)) {
          const parts = (['appended', 'updated', 'unchanged'] as const)
            .filter((k) => result[k].length > 0)
            .map((k) => `${k} ${result[k].join(', ')}`);
          out.info(`findings add: ${parts.join('; ')}`);
        }
      }
      await out.diagnostics(diagnostics);
      return hasErrors(diagnostics) ? ExitCode.Failed : ExitCode.Ok;
    },
  },
);
