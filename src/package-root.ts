/** Locates files shipped with the package (schemas/, templates/) from both dist/ and the TS sources. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

let cached: string | null = null;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) || !existsSync(path.join(dir, 'schemas'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('findings-compiler: cannot locate the package root (schemas/ missing)');
    dir = parent;
  }
  cached = dir;
  return dir;
}

export const packageFile = (...segments: string[]): string => path.join(packageRoot(), ...segments);

/**
 * A worker thread's script: `beside` (a URL made from the caller's own `import.meta.url`) when it
 * exists, as it does in dist/; else the built copy at `builtPath` under the package root, because
 * tests run the TS sources, which a worker cannot load, and the hook bundle is one file.
 */
export function workerScript(beside: URL, ...builtPath: string[]): URL {
  return existsSync(fileURLToPath(beside)) ? beside : pathToFileURL(packageFile(...builtPath));
}
