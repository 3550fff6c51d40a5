/**
 * The launcher's fast path for the commit hooks (docs/hooks.md "Speed"). `bin/findings.js` hands
 * `findings hook pre-commit|pre-merge-commit` to this module, built into one file
 * (`dist/hook.mjs`, scripts/bundle-hook.mjs), so a commit skips commander, the general CLI and
 * the ~100 module files they and the hook would load one by one. It accepts only the options the
 * hook command has, with values the command would accept, and declines anything else (help, an
 * unknown or repeated option, a value that starts with `-`) before doing any work: the launcher
 * then runs the full CLI, which answers as it always has.
 */
import type { CommitHook } from '../../hooks/pre-commit.js';
import { HOOK_FORMATS, runCommitHook, type HookOptions } from './commit-hook.js';
import { reportFailure, stopQuietlyOnClosedPipe } from './failure.js';
import type { HookStart } from '../../hooks/commit-start.js';
import { processIo } from './io.js';

export interface FastHookArgs {
  readonly hook: CommitHook;
  readonly options: HookOptions;
}

const FLAGS = new Set(['--quiet', '--json']);
const VALUED = new Set(['--root', '--format', '--max-warnings']);

/** The parsed command line, or null when the full CLI must decide. Pure. */
export function parseFastHookArgs(argv: readonly string[]): FastHookArgs | null {
  const [command, hook, ...rest] = argv;
  if (command !== 'hook' || (hook !== 'pre-commit' && hook !== 'pre-merge-commit')) return null;
  const options: { root?: string; format: string; json?: boolean; quiet?: boolean; maxWarnings?: number } = { format: 'stylish' };
  const seen = new Set<string>();
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (seen.has(name)) return null;
    seen.add(name);
    if (FLAGS.has(name) && eq === -1) {
      if (name === '--quiet') options.quiet = true;
      else options.json = true;
      continue;
    }
    if (!VALUED.has(name)) return null;
    const value = eq === -1 ? rest[(i += 1)] : arg.slice(eq + 1);
    if (value === undefined || value === '' || value.startsWith('-')) return null;
    if (name === '--root') options.root = value;
    else if (name === '--format') {
      if (!(HOOK_FORMATS as readonly string[]).includes(value)) return null;
      options.format = value;
    } else {
      // commander's parser for --max-warnings (src/cli/warnings.ts) accepts these, as Number(value).
      if (!/^\d+$/.test(value)) return null;
      options.maxWarnings = Number(value);
    }
  }
  return { hook, options };
}

/**
 * Runs the hook when the fast path can; false when the launcher must run the full CLI instead.
 * `started`: the git work the launcher began for this command line (hooks/commit-start.ts).
 */
export async function main(argv: readonly string[], started?: HookStart | null): Promise<boolean> {
  const parsed = parseFastHookArgs(argv);
  if (parsed === null) return false;
  stopQuietlyOnClosedPipe();
  const io = processIo();
  try {
    process.exitCode = await runCommitHook(parsed.hook, parsed.options, io, started);
  } catch (error) {
    process.exitCode = await reportFailure('hook', error, io);
  }
  return true;
}
