/**
 * ESLint's warning options, for `check`, `validate` and the hooks: `--quiet` reports errors only;
 * `--max-warnings N` fails (exit 1) when there are more than N warnings. As in ESLint 9, warnings
 * hidden by `--quiet` still count towards `--max-warnings`, so combining both stays strict.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { countBySeverity, type Diagnostic } from '../diagnostics.js';

export interface WarningOptions {
  quiet?: boolean;
  maxWarnings?: number;
}

function parseMaxWarnings(value: string): number {
  // -1 means "no limit", as in ESLint.
  if (!/^-?\d+$/.test(value) || Number(value) < -1) throw new InvalidArgumentError('expected a whole number ≥ 0 (or -1 for no limit)');
  return Number(value);
}

export function addWarningOptions(cmd: Command): Command {
  return cmd
    .option('--quiet', 'report errors only (hidden warnings still count for --max-warnings)')
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings (-1: no limit)', parseMaxWarnings);
}

export interface WarningVerdict {
  /** The diagnostics to print (errors only under --quiet). */
  readonly shown: Diagnostic[];
  /** The line saying the warning limit was exceeded, or null. */
  readonly tooMany: string | null;
}

/** Applies --quiet and --max-warnings to a result. Pure. */
export function applyWarningOptions(diagnostics: readonly Diagnostic[], options: WarningOptions): WarningVerdict {
  const shown = options.quiet ? diagnostics.filter((d) => d.severity === 'error') : [...diagnostics];
  const max = options.maxWarnings ?? -1;
  const warnings = countBySeverity(diagnostics).warning;
  const tooMany = max >= 0 && warnings > max ? `too many warnings: ${warnings} (maximum ${max}, --max-warnings)` : null;
  return { shown, tooMany };
}
