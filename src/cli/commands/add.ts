/** `findings add [--file F | -]`: add or merge registry entries by dedup_key (docs/registry.md). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, hasErrors, type Diagnostic } from '../../diagnostics.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { parseAddInput } from '../../registry/input.js';
import { addEntries } from '../../registry/writer.js';
import { readStdin, type CliIo } from '../io.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveRoot, type CommonOptions } from '../options.js';

interface AddOptions extends CommonOptions {
  file?: string;
}

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand('add', 'Add registry entries (a JSON object or array) or merge them into the line with the same dedup_key.', io)
    .argument('[source]', '"-" to read standard input (the default)')
    .option('--file <file>', 'read the entries from a file ("-" for standard input)');
  addRootOption(cmd);
  addFormatOptions(cmd, ['stylish', 'json']);
  cmd.action(async (positional: string | undefined, opts: AddOptions) => {
    const out = Output.from(io, opts, ['stylish', 'json']);
    if (positional !== undefined && opts.file !== undefined) throw new UsageError('give either --file or "-", not both');
    if (positional !== undefined && positional !== '-')
      throw new UsageError(`unexpected argument "${positional}" (use --file ${positional})`);
    const root = await resolveRoot(opts.root, io);
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
    exit = hasErrors(diagnostics) ? ExitCode.Failed : ExitCode.Ok;
  });
  await parseArgs(cmd, args);
  return exit;
}
