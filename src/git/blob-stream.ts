/**
 * One long-lived `git cat-file --batch` process read on demand (docs/stack-pitfalls.md#5: one process, not
 * one per object). Unlike `readObjects` (src/git/core.ts), which buffers the whole answer, this hands
 * out the objects asked for and holds nothing else, so a history walk reads its blobs a few
 * commits at a time in flat memory (docs/lifecycle.md, "Memory").
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { GitError, gitEnv } from './core.js';

interface Pending {
  readonly name: string;
  readonly deliver: (data: Buffer | null) => void;
}

type ParseState =
  | { readonly kind: 'header'; readonly parts: Buffer[] }
  | { readonly kind: 'body'; readonly size: number; remaining: number; readonly parts: Buffer[] };

export class BlobStream {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly pending: Pending[] = [];
  private state: ParseState = { kind: 'header', parts: [] };
  private failure: Error | null = null;
  private readonly failed: ((e: Error) => void)[] = [];
  private stderr = '';

  constructor(root: string) {
    this.child = spawn('git', ['cat-file', '--batch'], { cwd: root, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.on('data', (d: Buffer) => {
      this.stderr += d.toString('utf8');
    });
    this.child.on('error', (e) => this.fail(e));
    this.child.on('close', (code) => {
      if (this.pending.length > 0) this.fail(new GitError(['cat-file', '--batch'], code ?? -1, this.stderr || 'git cat-file exited early'));
    });
    // A write after git died is reported through 'close'; do not let it crash the process.
    this.child.stdin.on('error', () => undefined);
  }

  /** Reads the named objects (shas or `<rev>:<path>`, no newlines); missing ones map to null. */
  read(names: readonly string[]): Promise<Map<string, Buffer | null>> {
    const unique = [...new Set(names)];
    const out = new Map<string, Buffer | null>();
    if (unique.length === 0) return Promise.resolve(out);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      let left = unique.length;
      this.failed.push(reject);
      for (const name of unique) {
        this.pending.push({
          name,
          deliver: (data) => {
            out.set(name, data);
            left -= 1;
            if (left === 0) {
              this.failed.splice(this.failed.indexOf(reject), 1);
              resolve(out);
            }
          },
        });
      }
      this.child.stdin.write(`${unique.join('\n')}\n`);
    });
  }

  /** Ends the git process. */
  close(): void {
    this.child.stdin.end();
  }

  private fail(e: Error): void {
    this.failure = e;
    this.pending.length = 0;
    for (const reject of this.failed.splice(0)) reject(e);
  }

  private onData(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      const s = this.state;
      if (s.kind === 'header') {
        const nl = chunk.indexOf(0x0a, pos);
        if (nl === -1) {
          s.parts.push(chunk.subarray(pos));
          return;
        }
        s.parts.push(chunk.subarray(pos, nl));
        pos = nl + 1;
        const header = Buffer.concat(s.parts).toString('utf8');
        if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
          this.state = { kind: 'header', parts: [] };
          this.pending.shift()?.deliver(null);
          continue;
        }
        const size = Number(header.slice(header.lastIndexOf(' ') + 1));
        // The body is followed by one LF.
        this.state = { kind: 'body', size, remaining: size + 1, parts: [] };
      } else {
        const take = Math.min(s.remaining, chunk.length - pos);
        s.parts.push(chunk.subarray(pos, pos + take));
        s.remaining -= take;
        pos += take;
        if (s.remaining === 0) {
          const body = Buffer.concat(s.parts).subarray(0, s.size);
          this.state = { kind: 'header', parts: [] };
          this.pending.shift()?.deliver(body);
        }
      }
    }
  }
}
