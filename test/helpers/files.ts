/** Files under a folder, for tests that run over every fixture of a kind. */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every `.md` file under `dir`, at any depth, in directory order. */
export function markdownFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) out.push(...markdownFilesUnder(p));
    else if (n.endsWith('.md')) out.push(p);
  }
  return out;
}
