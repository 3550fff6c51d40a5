/** Locates files shipped with the package (schemas/, templates/) from both dist/ and the TS sources. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
