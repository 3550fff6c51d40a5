/**
 * The commit HEAD names, read from the git folder's files instead of asking git (docs/hooks.md
 * "Speed"): `HEAD`, then the branch's loose ref file or its line in `packed-refs`. Only for the
 * files backend; the caller makes sure the repository uses it (src/git/local-repository.ts).
 * Anything unexpected — a symlink, a malformed line, a ref that is neither a name nor a branch —
 * is undefined, and the caller asks git, as before.
 */
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';

const OBJECT_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** A ref name git could have written under refs/ (git check-ref-format, the parts that matter for a path). */
const REF_NAME = /^refs\/(?:[^/\0\\.][^/\0\\]*\/)*[^/\0\\.][^/\0\\]*$/;
/** Symbolic refs git follows before it gives up (refs.c: SYMREF_MAXDEPTH). */
const MAX_DEPTH = 5;

/** The file's text when it is a regular file; null when absent; undefined when anything else. */
function readRegular(file: string): string | null | undefined {
  try {
    if (!lstatSync(file).isFile()) return undefined;
    return readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

/** The object `ref` names in packed-refs text, or null when it is not there. Pure. */
export function packedRef(packed: string, ref: string): string | null | undefined {
  for (const line of packed.split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space === -1) return undefined;
    if (line.slice(space + 1) !== ref) continue;
    const name = line.slice(0, space);
    return OBJECT_NAME.test(name) ? name : undefined;
  }
  return null;
}

/**
 * The object HEAD names in `gitDir` (null: an unborn branch), or undefined when the files do not
 * say for certain.
 */
export function localHead(gitDir: string): string | null | undefined {
  let text = readRegular(path.join(gitDir, 'HEAD'));
  let packed: string | null | undefined;
  for (let depth = 0; depth <= MAX_DEPTH; depth += 1) {
    if (text === null || text === undefined) return undefined;
    const value = text.replace(/\n$/, '');
    if (OBJECT_NAME.test(value)) return value;
    if (!value.startsWith('ref: ')) return undefined;
    const ref = value.slice('ref: '.length).trim();
    if (!REF_NAME.test(ref) || ref.split('/').some((part) => part.endsWith('.lock') || part.includes('..'))) return undefined;
    text = readRegular(path.join(gitDir, ref));
    if (text === null) {
      packed ??= readRegular(path.join(gitDir, 'packed-refs'));
      if (packed === undefined) return undefined;
      // No loose file and no packed line: the branch has no commit yet.
      return packed === null ? null : packedRef(packed, ref);
    }
  }
  return undefined;
}
