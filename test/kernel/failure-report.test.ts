/**
 * How the CLI reports a file it cannot access (src/cli/failure.ts): exit 2, no stack, and the
 * path relative to where the user stands. Writers name absolute paths in their errors (a temp
 * file or temp folder beside the target), which printed as `/tmp/…/.agents/.planning-rules…`.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { reportFailure } from '../../src/cli/failure.js';
import type { CliIo } from '../../src/cli/io.js';
import { ExitCode } from '../../src/exit-codes.js';

function io(cwd: string): { io: CliIo; err: () => string } {
  let err = '';
  const sink = {
    write: (s: string): boolean => {
      err += s;
      return true;
    },
  };
  return {
    io: { cwd, env: {}, stdin: Readable.from([]), stdout: { write: () => true }, stderr: sink } as unknown as CliIo,
    err: () => err,
  };
}

const denied = (code: string, p?: string): Error =>
  Object.assign(new Error(`${code}: operation failed`), { code, ...(p ? { path: p } : {}) });

describe('a file the CLI cannot access', () => {
  it('names an absolute path relative to the working directory, and exits 2 without a stack', async () => {
    const cwd = path.resolve('/work/repo');
    const out = io(cwd);
    const tmp = path.join(cwd, '.agents', '.planning-rules.findings-12-1.tmpdir');
    expect(await reportFailure('compile', denied('EROFS', tmp), out.io)).toBe(ExitCode.Usage);
    expect(out.err()).toBe('findings compile: cannot access .agents/.planning-rules.findings-12-1.tmpdir (EROFS)\n');
  });

  it('keeps a relative path as it is, and says "a file" without one', async () => {
    const out = io(path.resolve('/work/repo'));
    await reportFailure('add', denied('EACCES', '.agents/findings/registry.jsonl'), out.io);
    await reportFailure('add', denied('ENOTDIR'), out.io);
    expect(out.err()).toBe(
      'findings add: cannot access .agents/findings/registry.jsonl (EACCES)\nfindings add: cannot access a file (ENOTDIR)\n',
    );
  });
});
