/** `defineCommand` / `defineCommandGroup` (src/cli/define-command.ts): the preamble every command shares. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../src/exit-codes.js';
import { type CommandContext, defineCommand, defineCommandGroup, subcommand } from '../../src/cli/define-command.js';
import type { CommonOptions } from '../../src/cli/options.js';
import type { CliIo } from '../../src/cli/io.js';
import { PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

function memoryIo(cwd: string): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    cwd,
    env: {},
    stdin: process.stdin,
    stdout: {
      write: (s: string) => {
        out += s;
      },
      isTTY: false,
    },
    stderr: {
      write: (s: string) => {
        err += s;
      },
      isTTY: false,
    },
    out: () => out,
    err: () => err,
  };
}

const demo = defineCommand('demo', 'A demo.', {
  declare: (cmd) => cmd.argument('[word]').option('--loud', 'shout'),
  root: 'any',
  formats: ['stylish', 'json'],
  warnings: true,
  action: async ({ io, opts, out, repoRoot }: CommandContext<CommonOptions & { loud?: boolean }>, word: string | undefined) => {
    if (word === 'bad') throw new UsageError('bad word');
    const root = await repoRoot();
    out.info(`${opts.loud ? 'LOUD ' : ''}${word ?? '-'} in ${path.basename(root)} as ${out.format}`);
    io.stderr.write('done\n');
    return word === 'fail' ? ExitCode.Failed : ExitCode.Ok;
  },
});

describe('defineCommand', () => {
  it("lists the command's own options, then --root, --format/--json, --quiet/--max-warnings", async () => {
    const io = memoryIo(tempDir());
    expect(await demo(['--help'], io)).toBe(ExitCode.Ok);
    const flags = [...io.out().matchAll(/^ {2}(-[-\w]+(?:, --\w+)?)/gm)].map((m) => m[1]);
    expect(flags).toEqual(['--loud', '--root', '--format', '--json', '--quiet', '--max-warnings', '-h, --help']);
  });

  it("returns the action's exit code, with Output set to the chosen format", async () => {
    const dir = tempDir();
    const io = memoryIo(dir);
    expect(await demo(['fail', '--json', '--loud', '--root', dir], io)).toBe(ExitCode.Failed);
    expect(io.err()).toBe(`LOUD fail in ${path.basename(dir)} as json\ndone\n`);
  });

  it("resolves the root only when the action asks: the command's own usage errors come first", async () => {
    const io = memoryIo(tempDir());
    await expect(demo(['bad', '--root', '/does/not/exist'], io)).rejects.toThrow('bad word');
    await expect(demo(['ok', '--root', '/does/not/exist'], io)).rejects.toThrow('--root /does/not/exist: not a directory');
  });

  it('turns commander errors into usage errors', async () => {
    await expect(demo(['--nope'], memoryIo(tempDir()))).rejects.toThrow(UsageError);
  });
});

describe('defineCommandGroup', () => {
  const group = defineCommandGroup('grp', 'A group.', {
    subcommands: [
      subcommand('one', 'first', {
        root: 'any',
        rootFirst: true,
        declare: (cmd) => cmd.option('--x', 'an x'),
        action: async () => ExitCode.Failed,
      }),
      subcommand('two', 'second', {
        action: async ({ io }) => {
          io.stdout.write('two\n');
          return ExitCode.Ok;
        },
      }),
    ],
    missing: 'give a subcommand: one, two',
  });

  it('runs the named subcommand and returns its exit code', async () => {
    const io = memoryIo(tempDir());
    expect(await group(['one'], io)).toBe(ExitCode.Failed);
    expect(await group(['two'], io)).toBe(ExitCode.Ok);
    expect(io.out()).toBe('two\n');
  });

  it('without a subcommand, or with an unknown one, is a usage error', async () => {
    await expect(group([], memoryIo(tempDir()))).rejects.toThrow('give a subcommand: one, two');
    await expect(group(['on'], memoryIo(tempDir()))).rejects.toThrow(/unknown command "on".*did you mean "one"/);
  });

  it('rootFirst lists --root before the subcommand options', async () => {
    const io = memoryIo(tempDir());
    await group(['one', '--help'], io);
    expect([...io.out().matchAll(/^ {2}(--\w+)/gm)].map((m) => m[1])).toEqual(['--root', '--x']);
  });
});

describe('every command module uses the helper', () => {
  // Every command is converted; a module added without the helper fails here.
  const NOT_YET = new Set<string>();
  it('src/cli/commands/*.ts export run = defineCommand(…) or defineCommandGroup(…)', () => {
    const dir = path.join(PACKAGE_ROOT, 'src/cli/commands');
    const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && !NOT_YET.has(f));
    const without = modules.filter(
      (f) => !/export const run = define(?:Command|CommandGroup)\(/.test(readFileSync(path.join(dir, f), 'utf8')),
    );
    expect(without).toEqual([]);
  });
});
