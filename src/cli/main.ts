/**
 * The command-line entry: the one place that reads argv and sets exit codes. Each subcommand
 * lives in its own module and is imported only when invoked, so `findings hook pre-commit`
 * never loads the compiler or the Markdown stack (docs/stack-pitfalls.md#9). A commit hook with
 * plain options does not even come here: the launcher takes the fast path (src/cli/hook-entry.ts).
 */
import { ExitCode } from '../exit-codes.js';
import { reportFailure, stopQuietlyOnClosedPipe } from './failure.js';
import { processIo, type CliIo } from './io.js';
import { didYouMean } from '../suggest.js';
import { VERSION } from '../version.js';

export interface CommandModule {
  run(args: string[], io: CliIo): Promise<ExitCode>;
}

interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

/** The explicit, ordered command list (help shows it in this order). */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'validate',
    summary: 'check the registry, artifacts, constraint index and review ledgers',
    load: () => import('./commands/validate.js'),
  },
  { name: 'add', summary: 'add or merge registry entries (by dedup_key)', load: () => import('./commands/add.js') },
  { name: 'rank', summary: 'rank active findings for a piece of work', load: () => import('./commands/rank.js') },
  { name: 'cite', summary: 'record that findings were cited (hit_count, last_cited)', load: () => import('./commands/cite.js') },
  { name: 'retire', summary: 'retire or supersede a registry entry', load: () => import('./commands/retire.js') },
  {
    name: 'compile',
    summary: 'promote findings and compile planning rules, pre-mortem checks and constraints',
    load: () => import('./commands/compile.js'),
  },
  { name: 'check', summary: 'apply the constraint index to staged, named, range or all files', load: () => import('./commands/check.js') },
  { name: 'hook', summary: 'run a git hook (pre-commit, pre-push)', load: () => import('./commands/hook.js') },
  {
    name: 'init',
    summary: 'set up hooks, .gitattributes and the .agents/ layout in a repository',
    load: () => import('./commands/init.js'),
  },
  { name: 'doctor', summary: 'report what is missing or wrong in the set-up', load: () => import('./commands/doctor.js') },
  { name: 'review', summary: 'the review ledger: file, resolve, submit, pass, waive, show', load: () => import('./commands/review.js') },
  {
    name: 'import',
    summary: 'import review threads from a saved GitHub or GitLab export into the review ledger',
    load: () => import('./commands/import.js'),
  },
  { name: 'recur', summary: 'turn recurring review findings into advisory registry candidates', load: () => import('./commands/recur.js') },
  { name: 'constraint', summary: 'measure, label, activate and retire constraints', load: () => import('./commands/constraint.js') },
  { name: 'ttl', summary: 'list (or retire) findings past their ttl_days', load: () => import('./commands/ttl.js') },
  { name: 'pull', summary: "import another repository's findings", load: () => import('./commands/pull.js') },
  {
    name: 'explain',
    summary: 'trace a constraint or finding back to the review that taught it',
    load: () => import('./commands/explain.js'),
  },
];

function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: findings <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `findings <command> --help` for the options of one command.',
    'Exit codes: 0 ok, 1 a check failed or a commit is blocked, 2 bad usage or unreadable input.',
    '',
  ].join('\n');
}

/** Runs one invocation and returns its exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(helpText());
    return name === undefined ? ExitCode.Usage : ExitCode.Ok;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`${VERSION}\n`);
    return ExitCode.Ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    const hint = didYouMean(
      name,
      COMMANDS.map((c) => c.name),
    );
    io.stderr.write(
      hint
        ? `findings: unknown command "${name}"${hint}\nRun \`findings --help\` for the list of commands.\n`
        : `findings: unknown command "${name}"\n\n${helpText()}`,
    );
    return ExitCode.Usage;
  }
  try {
    const mod = await entry.load();
    return await mod.run(rest, io);
  } catch (error) {
    return await reportFailure(name, error, io);
  }
}

/** Entry used by the bin launchers. */
export async function main(argv: readonly string[]): Promise<void> {
  stopQuietlyOnClosedPipe();
  process.exitCode = await runCli(argv, processIo());
}
