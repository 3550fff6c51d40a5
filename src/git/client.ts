/**
 * simple-git, for `findings doctor`'s set-up inspection (ARCHITECTURE.md "Libraries"). Kept out of
 * src/git/core.ts so the hooks, which only use plain child_process, never load it (docs/hooks.md
 * "Speed": simple-git and its dependencies are 14 module files).
 */
import { simpleGit, type SimpleGit } from 'simple-git';

/**
 * A simple-git client for non-hot operations. Git's own environment (GIT_INDEX_FILE, GIT_DIR,
 * GIT_SSL_CAINFO, …) is passed through on purpose, exactly as runGit does: simple-git 4 would
 * otherwise strip or refuse every GIT_* variable (docs/stack-pitfalls.md#4).
 */
export function gitClient(baseDir: string): SimpleGit {
  // Ambient variables only: simple-git refuses some explicitly passed ones (EDITOR, …).
  const allowEnvironment = Object.keys(process.env).filter((k) => /^git_/i.test(k));
  return simpleGit({ baseDir, allowEnvironment });
}
