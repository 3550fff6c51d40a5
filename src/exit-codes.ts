/** The exit-code table every command follows (README "Exit codes"). */
export const ExitCode = {
  /** Everything checked out (warnings allowed). */
  Ok: 0,
  /** A check found errors, a commit or push is blocked, or `--check` found drift. */
  Failed: 1,
  /** Bad usage, or input that cannot be read at all. */
  Usage: 2,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Thrown for bad invocations (unknown option, unreadable input); mapped to exit 2 by the CLI entry. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
