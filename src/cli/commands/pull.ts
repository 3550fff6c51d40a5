/** `findings pull` — not implemented yet. */
import { ExitCode } from '../../exit-codes.js';
import type { CliIo } from '../io.js';

export async function run(_args: string[], io: CliIo): Promise<ExitCode> {
  io.stderr.write('findings pull: not available yet\n');
  return ExitCode.Usage;
}
