/**
 * `findings import github|gitlab <file|->` (docs/import.md): a saved export of review threads
 * becomes structured findings in the review ledger, one task per pull or merge request.
 * `--print-commands <owner>/<repo>` prints the commands that make the export; the tool never calls
 * a network API. Exit codes: 0 imported (skipped comments are warnings), 2 bad usage or an export
 * that cannot be read (nothing written).
 */
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { hasErrors } from '../../diagnostics.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import type { ImportResult } from '../../import/run.js';
import type { Forge, Skip } from '../../import/thread.js';
import { type CommandContext, defineCommandGroup, subcommand } from '../define-command.js';
import type { CliIo } from '../io.js';
import type { CommonOptions, Output } from '../options.js';

interface ImportOptions extends CommonOptions {
  printCommands?: string;
  includeBots?: boolean;
  since?: string;
  projectUrl?: string;
}

/** Skips listed one by one in stylish output; JSON lists them all. */
const SKIPS_SHOWN = 20;

/** The export's bytes: a file (checked before reading) or standard input. */
function exportInput(io: CliIo, file: string): { input: AsyncIterable<Buffer | string>; name: string } {
  if (file === '-') return { input: io.stdin as AsyncIterable<Buffer | string>, name: '<stdin>' };
  const abs = path.resolve(io.cwd, file);
  try {
    if (!statSync(abs).isFile()) throw new UsageError(`${file}: not a file`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file}: cannot read (${(error as { code?: string }).code ?? String(error)})`);
  }
  return { input: createReadStream(abs, { highWaterMark: 1 << 20 }), name: file };
}

/** `--since <date>` as ISO 8601 UTC to the second. */
function sinceOf(v: string | undefined): string | null {
  if (v === undefined) return null;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v) : Number.NaN;
  if (Number.isNaN(ms)) throw new UsageError(`--since ${v}: not a date (use YYYY-MM-DD or an ISO 8601 time)`);
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function skipJson(s: Skip): unknown {
  return { line: s.line, what: s.what, reason: s.reason };
}

function resultJson(r: ImportResult): unknown {
  return {
    objects: r.objects,
    threads: r.threads,
    comments: r.comments,
    tasks: r.tasks,
    classes: r.classes,
    skipped: r.skips.map(skipJson),
    diagnostics: r.diagnostics,
  };
}

async function printResult(out: Output, r: ImportResult, inputName: string): Promise<void> {
  for (const s of r.skips.slice(0, SKIPS_SHOWN))
    out.warn(`${inputName}${s.line > 0 ? `:${s.line}` : ''}: skipped ${s.what ?? 'a value'}: ${s.reason}`);
  if (r.skips.length > SKIPS_SHOWN) out.warn(`…and ${r.skips.length - SKIPS_SHOWN} more skipped; \`--format json\` lists them all`);
  await out.diagnostics(r.diagnostics);
  if (hasErrors(r.diagnostics)) return;
  for (const t of r.tasks) {
    if (t.filed + t.updated + t.resolved === 0) continue;
    out.info(`${t.task}: ${t.filed} filed, ${t.updated} updated, ${t.resolved} resolved`);
  }
  const sum = (k: 'filed' | 'updated' | 'resolved' | 'unchanged' | 'older'): number => r.tasks.reduce((n, t) => n + t[k], 0);
  const older = sum('older');
  out.info(
    `imported ${r.threads} thread(s) with ${r.comments} comment(s) from ${inputName}: ${sum('filed')} filed, ${sum('updated')} updated, ` +
      `${sum('resolved')} resolved, ${sum('unchanged')} unchanged${older > 0 ? `, ${older} older than the ledger` : ''}, ` +
      `${r.skips.length} skipped; classes: ${r.classes.explicit} explicit, ${r.classes.config} from config, ` +
      `${r.classes.lexical} lexical, ${r.classes.none} none`,
  );
}

function importSubcommand(forge: Forge) {
  const commandsFor = forge === 'github' ? '<owner>/<repo>' : '<group>/<project>';
  return subcommand(
    forge,
    `Import ${forge === 'github' ? 'GitHub review comments or review threads' : 'GitLab merge request discussions'}.`,
    {
      declare: (cmd) => {
        cmd
          .argument('[file]', 'the saved export, or - for standard input')
          .option(`--print-commands <${commandsFor.slice(1, -1)}>`, 'print the commands that make the export, and exit')
          .option('--include-bots', 'keep threads started by bots (left out by default)')
          .option('--since <date>', 'only threads started on or after this date (YYYY-MM-DD or ISO 8601)');
        if (forge === 'gitlab')
          cmd.option('--project-url <url>', "the project's web URL, to link each comment (GitLab's notes carry none)");
      },
      root: 'any',
      formats: ['stylish', 'json'],
      action: async ({ io, opts, out, repoRoot }: CommandContext<ImportOptions>, file: string | undefined) => {
        const { githubCommands, gitlabCommands } = await import('../../import/commands.js');
        if (opts.printCommands !== undefined) {
          if (file !== undefined) throw new UsageError('--print-commands takes no export file');
          const text = forge === 'github' ? githubCommands(opts.printCommands) : gitlabCommands(opts.printCommands);
          if (text === null) throw new UsageError(`--print-commands ${opts.printCommands}: expected ${commandsFor}`);
          io.stdout.write(text);
          return ExitCode.Ok;
        }
        if (file === undefined)
          throw new UsageError('missing the export file (or - for standard input); --print-commands shows how to make one');
        const since = sinceOf(opts.since);
        const projectUrl = opts.projectUrl ?? null;
        if (projectUrl !== null && !/^https?:\/\/[^\s'"<>]+$/.test(projectUrl))
          throw new UsageError(`--project-url ${projectUrl}: not a web URL`);
        const { input, name } = exportInput(io, file);
        const root = await repoRoot();
        const { importReviews } = await import('../../import/run.js');
        let result: ImportResult;
        try {
          result = await importReviews(root, { forge, input, inputName: name, includeBots: opts.includeBots === true, since, projectUrl });
        } catch (error) {
          // A read error of the export itself (the file vanished, EACCES, EIO) is unreadable input.
          const { code, syscall } = error as { code?: string; syscall?: string };
          if (typeof code === 'string' && (syscall === 'read' || syscall === 'open'))
            throw new UsageError(`${name}: cannot read (${code})`);
          throw error;
        }
        if (out.machine) out.json(resultJson(result));
        else await printResult(out, result, name);
        return hasErrors(result.diagnostics) ? ExitCode.Usage : ExitCode.Ok;
      },
    },
  );
}

export const run = defineCommandGroup('import', 'Import review threads from a saved GitHub or GitLab export into the review ledger.', {
  subcommands: [importSubcommand('github'), importSubcommand('gitlab')],
  missing: 'give the forge: findings import github <file|->, findings import gitlab <file|->',
});
