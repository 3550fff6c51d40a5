/**
 * The preamble every command repeats, written once: a commander command that writes to the
 * command's `CliIo` (`baseCommand`), the common options in the order `--help` lists them (the
 * command's own arguments and options, then `--root`, `--format`/`--json`, `--quiet`/
 * `--max-warnings`), the `Output` for the chosen format, the repository root on demand, argv
 * parsing with usage errors (`parseArgs`), and the exit code the action returns.
 *
 * A command module is then `export const run = defineCommand(name, description, spec)`: it parses
 * and calls; the work lives in the kernel, hooks or compiler (ARCHITECTURE.md, "CLI").
 */
import type { Command } from 'commander';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { Format } from '../output/format.js';
import type { CliIo } from './io.js';
import {
  addFormatOptions,
  addRootOption,
  baseCommand,
  type CommonOptions,
  Output,
  parseArgs,
  resolveGitRoot,
  resolveRoot,
  subCommand,
} from './options.js';
import { addWarningOptions } from './warnings.js';

/** What an action gets besides its positional arguments. */
export interface CommandContext<O extends CommonOptions> {
  readonly io: CliIo;
  readonly opts: O;
  /** Where lines and machine output go for the chosen `--format` (stylish when the command has none). */
  readonly out: Output;
  /**
   * The repository root (`--root`, else the git top level of cwd), resolved when asked: a command's
   * own usage checks come first, as they always have.
   */
  repoRoot(): Promise<string>;
}

export interface CommandSpec<O extends CommonOptions, P extends unknown[]> {
  /** `--root` and how it resolves: `any` folder (cwd when outside git) or a `git` repository (else exit 2). */
  readonly root?: 'any' | 'git';
  /** `--root` before the command's own options in `--help` (the `review` subcommands list it first). */
  readonly rootFirst?: boolean;
  /** `--format` (with these choices, `stylish` first) and `--json`. */
  readonly formats?: readonly Format[];
  /** ESLint's `--quiet` and `--max-warnings` (src/cli/warnings.ts). */
  readonly warnings?: boolean;
  /** The command's own arguments and options. */
  readonly declare?: (cmd: Command) => unknown;
  /** The work: returns the exit code. Throw `UsageError` for bad usage (exit 2). */
  readonly action: (ctx: CommandContext<O>, ...positionals: P) => Promise<ExitCode>;
}

/** Declares the options and the action of one (sub)command; `done` receives the exit code its action returns. */
function build<O extends CommonOptions, P extends unknown[]>(
  cmd: Command,
  io: CliIo,
  spec: CommandSpec<O, P>,
  done: (code: ExitCode) => void,
): void {
  if (spec.root !== undefined && spec.rootFirst) addRootOption(cmd);
  spec.declare?.(cmd);
  if (spec.root !== undefined && !spec.rootFirst) addRootOption(cmd);
  if (spec.formats !== undefined) addFormatOptions(cmd, spec.formats);
  if (spec.warnings) addWarningOptions(cmd);
  cmd.action(async (...received: unknown[]) => {
    // commander calls an action with the positionals, then the options, then the command.
    const opts = received[received.length - 2] as O;
    const positionals = received.slice(0, -2) as P;
    const out = spec.formats === undefined ? new Output(io, 'stylish') : Output.from(io, opts, spec.formats);
    const repoRoot = (): Promise<string> => (spec.root === 'git' ? resolveGitRoot(opts.root, io) : resolveRoot(opts.root, io));
    done(await spec.action({ io, opts, out, repoRoot }, ...positionals));
  });
}

/** A top-level command: `findings <name> …`. */
export function defineCommand<O extends CommonOptions, P extends unknown[]>(
  name: string,
  description: string,
  spec: CommandSpec<O, P>,
): (args: string[], io: CliIo) => Promise<ExitCode> {
  return async (args, io) => {
    let exit: ExitCode = ExitCode.Ok;
    const cmd = baseCommand(name, description, io);
    build(cmd, io, spec, (code) => {
      exit = code;
    });
    await parseArgs(cmd, args);
    return exit;
  };
}

/** One subcommand of a group, made by `subcommand` (which keeps its option and positional types). */
export interface Subcommand {
  readonly name: string;
  readonly description: string;
  attach(parent: Command, io: CliIo, done: (code: ExitCode) => void): void;
}

export function subcommand<O extends CommonOptions, P extends unknown[]>(
  name: string,
  description: string,
  spec: CommandSpec<O, P>,
): Subcommand {
  return { name, description, attach: (parent, io, done) => build(subCommand(parent, name, description, io), io, spec, done) };
}

/**
 * A command with subcommands (`findings review <sub> …`), listed in `--help` in the given order.
 * Without a subcommand it is a usage error (exit 2) with `missing` as the message.
 */
export function defineCommandGroup(
  name: string,
  description: string,
  group: {
    readonly subcommands: readonly Subcommand[];
    readonly missing: string;
    /** commander's `help [command]` subcommand, which a command with its own action otherwise lacks (`constraint` has always listed it). */
    readonly helpCommand?: boolean;
  },
): (args: string[], io: CliIo) => Promise<ExitCode> {
  return async (args, io) => {
    let exit: ExitCode = ExitCode.Ok;
    const cmd = baseCommand(name, description, io);
    for (const s of group.subcommands)
      s.attach(cmd, io, (code) => {
        exit = code;
      });
    cmd.action(() => {
      throw new UsageError(group.missing);
    });
    if (group.helpCommand) cmd.helpCommand(true);
    await parseArgs(cmd, args);
    return exit;
  };
}
