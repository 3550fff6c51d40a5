/**
 * What every entry into the CLI does around a command (src/cli/main.ts, and the launcher's fast
 * path for the commit hooks, src/cli/hook-entry.ts): a closed pipe stops quietly, and a thrown
 * error becomes a message and an exit code, never a stack trace for bad input. The error classes
 * of the writing modules are imported only when reporting a failure, so a hook never loads them.
 */
import path from 'node:path';
import { ExitCode, UsageError } from '../exit-codes.js';
import { GitError } from '../git/core.js';
import { toPosix } from '../paths.js';
import type { CliIo } from './io.js';

/** The message and exit code of an error thrown by command `name`. */
export async function reportFailure(name: string, error: unknown, io: CliIo): Promise<ExitCode> {
  const [{ LockTimeoutError }, { WriteRefusedError }] = await Promise.all([import('../fs/lock.js'), import('../fs/repo-write.js')]);
  if (error instanceof LockTimeoutError) {
    // Paths in output are relative (to where the user stands), never absolute.
    io.stderr.write(`findings ${name}: ${error.message.replace(error.lockPath, toPosix(path.relative(io.cwd, error.lockPath)))}\n`);
    return ExitCode.Usage;
  }
  if (error instanceof WriteRefusedError) {
    io.stderr.write(`findings ${name}: ${error.message}\n`);
    return ExitCode.Failed;
  }
  if (error instanceof UsageError) {
    io.stderr.write(`findings ${name}: ${error.message}\n`);
    return ExitCode.Usage;
  }
  if (error instanceof GitError) {
    io.stderr.write(`findings ${name}: ${error.message}\n`);
    return ExitCode.Usage;
  }
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && ['EACCES', 'EISDIR', 'ENOTDIR', 'ENOENT', 'EPERM', 'EROFS', 'ENOSPC'].includes(code)) {
    const p = (error as { path?: unknown }).path;
    // Relative to where the user stands, as every path in output (a writer's temp path is absolute).
    const shown = typeof p !== 'string' ? 'a file' : path.isAbsolute(p) ? toPosix(path.relative(io.cwd, p)) || '.' : p;
    io.stderr.write(`findings ${name}: cannot access ${shown} (${code})\n`);
    return ExitCode.Usage;
  }
  // A bug, not bad input: say so plainly; the stack only on request.
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`findings ${name}: internal error: ${message}\n`);
  if (io.env['FINDINGS_DEBUG'] && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else io.stderr.write('(set FINDINGS_DEBUG=1 to see the stack)\n');
  return ExitCode.Usage;
}

/** `findings … | head` closes the pipe early: stop quietly, as Unix tools do, instead of a stack trace. */
export function stopQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
      throw error;
    });
  }
}
