/**
 * Clean-up that must run however the process ends: normal exit, SIGINT, SIGTERM, SIGHUP (locks,
 * `findings pull`'s temporary repositories). One set of handlers for all of them, so a signal runs
 * every clean-up once and is then re-raised with its default action (the exit status still says
 * "killed by signal"). SIGKILL cannot be caught: what it leaves is swept by the next run.
 */
const cleanups = new Set<() => void>();
let installed = false;

function runAll(): void {
  for (const fn of [...cleanups]) {
    try {
      fn();
    } catch {
      // best effort on the way out
    }
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      runAll();
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    });
  }
}

/** Registers `fn` to run on exit or on a terminating signal; returns a function that unregisters it. */
export function onExitCleanup(fn: () => void): () => void {
  install();
  cleanups.add(fn);
  return () => {
    cleanups.delete(fn);
  };
}
