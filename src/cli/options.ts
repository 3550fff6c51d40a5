/** Conventions every command follows: `--root`, `--format`/`--json`, output streams, exit codes. */
import { statSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import type { Diagnostic } from '../diagnostics.js';
import { UsageError } from '../exit-codes.js';
import { findProjectRoot, namedProjectRoot } from '../git/project-root.js';
import { formatDiagnostics, parseFormat, type Format, type FormatContext } from '../output/format.js';
import { paintFor, type Paint } from '../output/paint.js';
import type { CliIo } from './io.js';
import { didYouMean } from '../suggest.js';

/** A commander command that never calls process.exit and writes to the given io. */
export function baseCommand(name: string, description: string, io: CliIo): Command {
  const cmd = new Command(`findings ${name}`);
  configure(cmd, io);
  return cmd.description(description);
}

function configure(cmd: Command, io: CliIo): void {
  cmd
    .exitOverride()
    .allowExcessArguments(false)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: () => {
        // reported by parseArgs as a usage error
      },
    });
}

/** A subcommand configured like its parent (for `review`, `constraint`, `hook`). */
export function subCommand(parent: Command, name: string, description: string, io: CliIo): Command {
  const cmd = parent.command(name).description(description);
  configure(cmd, io);
  return cmd;
}

export function addRootOption(cmd: Command): Command {
  return cmd.option('--root <dir>', 'repository root (default: the git top level of the current directory)');
}

export function addFormatOptions(cmd: Command, formats: readonly Format[]): Command {
  return cmd
    .addOption(new Option('--format <format>', 'output format').choices([...formats]).default('stylish'))
    .option('--json', 'short for --format json');
}

/** Parses argv (after the subcommand name). Help and version exit 0; other commander errors become usage errors. */
export async function parseArgs(cmd: Command, args: readonly string[]): Promise<void> {
  unknownSubcommand(cmd, args);
  try {
    await cmd.parseAsync([...args], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return;
      throw new UsageError(error.message.replace(/^error: /, ''));
    }
    throw error;
  }
}

/**
 * A command with subcommands refuses an unknown first word with a suggestion (`findings review
 * fial` → did you mean "fail"?). commander does this only for parents without an action, and
 * `review` has one, so the check is made here for all of them alike.
 */
function unknownSubcommand(cmd: Command, args: readonly string[]): void {
  const first = args[0];
  if (cmd.commands.length === 0 || first === undefined || first.startsWith('-') || first === 'help') return;
  const names = cmd.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  if (names.includes(first)) return;
  throw new UsageError(`unknown command "${first}"${didYouMean(first, names)} (commands: ${cmd.commands.map((c) => c.name()).join(', ')})`);
}

/** The folder `--root` names, resolved against cwd; a usage error when it is not a directory. */
export function rootDirectory(rootOption: string, io: CliIo): string {
  const abs = path.resolve(io.cwd, rootOption);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`--root ${rootOption}: not a directory`);
  return abs;
}

/**
 * `--root`, else the project root of cwd (the nearest folder from cwd up to the git top level that
 * holds `.agents/`, else the top level: src/git/project-root.ts), else cwd outside a repository.
 */
export async function resolveRoot(rootOption: string | undefined, io: CliIo): Promise<string> {
  if (rootOption === undefined) return (await findProjectRoot(io.cwd))?.root ?? io.cwd;
  const root = rootDirectory(rootOption, io);
  // The root's prefix below the top level, for every git process that follows (null outside a repository).
  await namedProjectRoot(root);
  return root;
}

/** Like resolveRoot, for commands that need git: outside a repository is a usage error (exit 2). */
export async function resolveGitRoot(rootOption: string | undefined, io: CliIo): Promise<string> {
  // One rev-parse both finds and proves the root (each git process costs the hook).
  const found = rootOption === undefined ? await findProjectRoot(io.cwd) : await namedProjectRoot(rootDirectory(rootOption, io));
  if (found === null) throw new UsageError(`${rootOption ?? io.cwd}: not a git repository (run \`git init\` first)`);
  return found.root;
}

export interface CommonOptions {
  root?: string;
  format?: string;
  json?: boolean;
}

/** Where a command's human lines and machine output go, given the chosen format. */
export class Output {
  readonly paint: Paint;
  readonly errPaint: Paint;
  constructor(
    readonly io: CliIo,
    readonly format: Format,
  ) {
    this.paint = paintFor(Boolean(io.stdout.isTTY), io.env);
    this.errPaint = paintFor(Boolean(io.stderr.isTTY), io.env);
  }

  static from(io: CliIo, opts: CommonOptions, allowed: readonly Format[]): Output {
    return new Output(io, parseFormat(opts.format, opts.json, allowed));
  }

  get machine(): boolean {
    return this.format !== 'stylish';
  }

  /** A human line: stdout in stylish mode; stderr when stdout carries machine output. */
  info(line: string): void {
    (this.machine ? this.io.stderr : this.io.stdout).write(`${line}\n`);
  }

  /** A warning line, always on stderr. */
  warn(line: string): void {
    this.io.stderr.write(`${line}\n`);
  }

  /** Writes diagnostics in the chosen format to stdout (stylish writes nothing when there are none). */
  async diagnostics(list: readonly Diagnostic[], extra: Omit<FormatContext, 'paint'> = {}): Promise<void> {
    const text = await formatDiagnostics(list, this.format, { ...extra, paint: this.paint });
    if (text) this.io.stdout.write(text);
  }

  /** Writes a JSON document to stdout. */
  json(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }
}

/** Splits `a,b` and repeated options into a clean list. */
export function listOption(values: string | readonly string[] | undefined): string[] {
  if (values === undefined) return [];
  const arr = typeof values === 'string' ? [values] : values;
  return arr
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** commander collector for repeatable options. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
