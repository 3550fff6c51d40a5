/** The process surface a command sees. Tests pass their own; the bin passes the real process. */
export interface Writer {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
}

export interface CliIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: Writer;
  readonly stderr: Writer;
}

export function processIo(): CliIo {
  return {
    cwd: process.cwd(),
    env: process.env,
    // Built on first read: node makes /dev/null (a git hook's standard input) a file stream, whose
    // code (file streams, readline) costs a commit about 10 ms it never uses.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
}

/** Reads all of standard input as UTF-8. */
export async function readStdin(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
