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

/**
 * Makes `instanceof base` answer by a brand on the prototype, not by the class object. The commit
 * hook's bundle holds its own copy of the modules that define the errors the CLI recognises,
 * while a module it loads on demand imports dist/'s (scripts/bundle-hook.mjs): an error from
 * either copy is still one class. A subclass answers by its own prototype chain, as usual.
 */
export function brandErrorClass(base: abstract new (...args: never[]) => Error, key: string): void {
  const brand = Symbol.for(`findings-compiler.${key}`);
  Object.defineProperty(base.prototype, brand, { value: true });
  const ordinary = Function.prototype[Symbol.hasInstance];
  Object.defineProperty(base, Symbol.hasInstance, {
    value(this: unknown, value: unknown): boolean {
      if (this !== base) return ordinary.call(this, value);
      return typeof value === 'object' && value !== null && brand in value;
    },
  });
}

/** Thrown for bad invocations (unknown option, unreadable input); mapped to exit 2 by the CLI entry. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
brandErrorClass(UsageError, 'UsageError');
