/**
 * Upstream's path globs (docs/hooks.md "Globs"): the shapes the agentops gate accepts and what
 * each means there, written from the facts of its `validateGlobSupported` and `matchGlob`
 * (cli/internal/gates/checks/constraints.go, cli/internal/gates/routing.go). A glob of one of
 * these shapes means exactly this here too, wherever the entry lives; every other shape is this
 * project's extension (picomatch, src/match/applies.ts) and lives in the extended index.
 *
 * - an exact path (no `*`): the whole path from the root (`Makefile` is only the top-level one);
 * - `base/**` (no other `*`): everything under `base/`;
 * - `**\/*suffix` (no other `*`): every path ending with `suffix`, at any depth;
 * - `*.ext` (one `*`): every path ending with `.ext`, at any depth;
 * - one `*` anywhere else: the path starts with what precedes it and ends with what follows it
 *   (`*` crosses `/`: `cli/*.go` matches `cli/x/b.go`; `test_*` matches `test_data/a.py`).
 * No other character has a meaning: `[`, `]`, `(`, `)`, `+`, `?`, `{`, `}` and `!` are path
 * characters (`app/(group)/**`, `routes/[id]/**`). Pure.
 */

/** True when upstream's gate accepts the glob's shape (`validateGlobSupported`). */
export function isUpstreamGlob(glob: string): boolean {
  if (glob.trim() === '') return false;
  if (!glob.includes('*')) return true;
  const stars = countStars(glob);
  if (glob.endsWith('/**') && !glob.slice(0, -3).includes('*')) return true;
  if (glob.startsWith('**/*') && !glob.slice(4).includes('*')) return true;
  if (glob.startsWith('*.') && stars === 1) return true;
  return stars === 1;
}

function countStars(s: string): number {
  let n = 0;
  for (let i = s.indexOf('*'); i !== -1; i = s.indexOf('*', i + 1)) n += 1;
  return n;
}

/** Upstream's `matchGlob`: whether a repository path matches a glob, case by case in its order. */
export function matchUpstreamGlob(glob: string, path: string): boolean {
  if (glob === path) return true;
  if (glob.endsWith('/**')) return path.startsWith(glob.slice(0, -2));
  if (glob.startsWith('**/*')) return path.endsWith(glob.slice(4));
  if (glob.startsWith('*.')) return path.endsWith(glob.slice(1));
  const star = glob.indexOf('*');
  if (star !== -1) return path.startsWith(glob.slice(0, star)) && path.endsWith(glob.slice(star + 1));
  return false;
}
