/**
 * Which blobs `findings check --all` needs to read (docs/hooks.md "Speed"). Reading and decoding
 * every tracked file costs more than judging it: at 100,000 files, `git cat-file --batch` alone
 * is most of what `git grep` takes. A file can be left unread when no applicable constraint could
 * report anything in it: every constraint covering it has required literals (src/match/literals.ts)
 * and is a `match` detector, and the file holds none of those literals. One `git grep --cached`
 * pass (git's threads, no decoding in node) finds the files holding any of them. The gate judges
 * an unread file as empty text, which has no hit for such constraints — the same verdict as its
 * real text, whose literals are absent.
 *
 * Always read: files a constraint without literals (or with `mode: required`) covers, files
 * with a NUL byte (they may be binary: the binary warning needs their content), anything not a
 * regular file, and `.agents/`. Any doubt (no index, an invalid one, git grep failing, a git
 * without PCRE) reads everything, as before.
 */
import { hasConstraintFiles, parseConstraintSet, type ConstraintTexts } from '../src/constraints/constraint-set.js';
import { stagedFilesMatching } from '../src/git/grep.js';
import { entryPathFilter } from '../src/match/applies.js';
import { compileDetector, kindsOf, loadDetectorKinds } from '../src/match/detector.js';
import { LiteralTable, type LiteralTree } from '../src/match/literals.js';
import { applicableConstraints, isGateExempt } from './gate.js';

/** An index entry as `git ls-files -s` lists it. */
export interface ListedBlob {
  readonly path: string;
  readonly mode: string;
}

const REGULAR = new Set(['100644', '100755']);
/** A longer search pattern is not worth it (and PCRE refuses very large ones): read everything. */
const MAX_PATTERN_CHARS = 64 * 1024;

/** Every literal of a tree (a file with none of them fails the tree). Pure. */
function literalsOf(tree: LiteralTree, table: LiteralTable, out: string[] = []): string[] {
  if (tree.kind === 'literal') out.push(table.literals[tree.id]!);
  else for (const p of tree.parts) literalsOf(p, table, out);
  return out;
}

/**
 * A PCRE pattern (for `git grep -P`) matching a NUL byte or any of the literals: each literal as
 * its UTF-8 bytes, letters and digits as they are and every other byte as `\xHH`, so the pattern
 * is ASCII; run in the C locale, git matches bytes (no UTF mode to trip on a file that is not UTF-8). Pure.
 */
export function grepPattern(literals: readonly string[]): string {
  const alternatives = ['\\x00'];
  for (const lit of literals) {
    let p = '';
    for (const byte of Buffer.from(lit, 'utf8')) {
      const c = String.fromCharCode(byte);
      p += /[A-Za-z0-9_]/.test(c) ? c : `\\x${byte.toString(16).padStart(2, '0')}`;
    }
    alternatives.push(p);
  }
  return alternatives.join('|');
}

/**
 * The paths worth reading among `listed`, or null to read them all. `texts` are the constraint
 * files the check will apply (the working tree's for `--all`).
 */
export async function pathsWorthReading(
  root: string,
  listed: readonly ListedBlob[],
  texts: ConstraintTexts,
): Promise<ReadonlySet<string> | null> {
  if (!hasConstraintFiles(texts)) return null;
  const parsed = parseConstraintSet(texts);
  if (!parsed.ok) return null;
  await loadDetectorKinds(kindsOf(parsed.index.constraints));
  const needed = new Set<string>();
  for (const e of listed) if (!REGULAR.has(e.mode) || isGateExempt(e.path)) needed.add(e.path);
  const literals = new Set<string>();
  const table = new LiteralTable();
  const coveredOnce = new Set<string>();
  // Skipped constraints are included: a larger selection is always safe.
  for (const c of applicableConstraints(parsed.index, new Set())) {
    const filter = entryPathFilter(c);
    const compiled = compileDetector(c.detector);
    // A broken glob or detector is an error about the index, whatever the files hold.
    if (!filter.ok || !compiled.ok) continue;
    const tree = compiled.matcher.mode === 'match' ? compiled.matcher.requiredLiterals(table) : null;
    const own = tree === null ? null : literalsOf(tree, table);
    // git grep looks line by line: a literal with a line feed cannot be searched for that way.
    if (own !== null && !own.some((l) => l.includes('\n'))) {
      for (const l of own) literals.add(l);
      continue;
    }
    const key = JSON.stringify(c.applies_to);
    if (coveredOnce.has(key)) continue;
    coveredOnce.add(key);
    for (const e of listed) if (filter.test(e.path)) needed.add(e.path);
  }
  if (needed.size >= listed.length) return null;
  const pattern = grepPattern([...literals]);
  if (pattern.length > MAX_PATTERN_CHARS) return null;
  const found = await stagedFilesMatching(root, pattern);
  if (found === null) return null;
  for (const p of found) needed.add(p);
  return needed;
}
