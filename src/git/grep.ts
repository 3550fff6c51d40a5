/**
 * `git grep` for the hooks area, with its paths converted to root-relative ones at this boundary
 * (src/git/project-root.ts): git searches the folder it runs in, the project root, and prints
 * the paths it finds from the top level (`--full-name`).
 */
import type { RootPath } from '../paths.js';
import { runGit } from './core.js';
import { asTopLevel, rootPathOf, rootPrefix } from './project-root.js';

/**
 * The staged files (the index) in which the PCRE `pattern` matches, or null when git cannot say
 * (no PCRE, an error). The C locale keeps PCRE in byte mode (under a UTF-8 locale git matches code
 * points, and `\xc3` would mean U+00C3).
 */
export async function stagedFilesMatching(root: string, pattern: string): Promise<Set<RootPath> | null> {
  const args = ['grep', '--cached', '-l', '-z', '-a', '--full-name', '--no-color', '--no-textconv', '-P', '-e', pattern];
  const r = await runGit(root, args, { env: { LC_ALL: 'C' } }).catch(() => null);
  if (r === null) return null;
  // 1: no file matches; anything else but 0 (no PCRE, a git error): git cannot say.
  if (r.code === 1) return new Set();
  if (r.code !== 0) return null;
  const prefix = await rootPrefix(root);
  const found = new Set<RootPath>();
  for (const p of r.stdout.toString('utf8').split('\0')) {
    const rel = p === '' ? null : rootPathOf(asTopLevel(p), prefix);
    if (rel !== null) found.add(rel);
  }
  return found;
}

/** One line of a tracked file at a commit holding a fixed string. */
export interface GrepLine {
  readonly path: RootPath;
  readonly line: number;
  readonly text: string;
}

/** The lines of the text files at `rev` (under the project root) that hold `literal`; none when there is no such commit. */
export async function linesAt(root: string, rev: string, literal: string): Promise<GrepLine[]> {
  // -z: `<rev>:<path>\0<line>\0<text>\n`, so a path may hold colons. Exit 1 means no match.
  const r = await runGit(root, ['grep', '-z', '-n', '-I', '--full-name', '-F', '-e', literal, rev, '--']);
  if (r.code !== 0) return [];
  const prefix = await rootPrefix(root);
  const out: GrepLine[] = [];
  for (const row of r.stdout.toString('utf8').split('\n')) {
    const [name, line, text] = row.split('\0');
    if (name === undefined || line === undefined || text === undefined) continue;
    const rel = rootPathOf(asTopLevel(name.slice(rev.length + 1)), prefix);
    if (rel !== null) out.push({ path: rel, line: Number(line), text });
  }
  return out;
}
