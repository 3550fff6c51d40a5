/**
 * The environment's ways to skip checks (docs/hooks.md "Skipping"): FINDINGS_SKIP, and husky's
 * HUSKY=0 for the commit hooks. Its own module so the launcher can tell, before loading any hook
 * code, whether a commit will be judged at all.
 */

/** FINDINGS_SKIP: `all`, or a comma-separated list of constraint ids. Pure. */
export function parseSkip(env: NodeJS.ProcessEnv): { all: boolean; ids: Set<string> } {
  const raw = env['FINDINGS_SKIP'] ?? '';
  const ids = new Set(
    raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
  return { all: ids.has('all'), ids };
}

/** True when a commit hook judges nothing: FINDINGS_SKIP=all or HUSKY=0. Pure. */
export function commitHookSkipped(env: NodeJS.ProcessEnv): boolean {
  return parseSkip(env).all || env['HUSKY'] === '0';
}
