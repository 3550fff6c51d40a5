/**
 * Where a long run's progress line goes (`check --all`; docs/hooks.md): rewritten in place on
 * stderr when stderr is a terminal, nowhere otherwise, so pipes, files and CI logs never carry
 * it. Progress is written only by the run itself (after its first second), and cleared before
 * the report.
 */
import type { Writer } from './io.js';

export interface ProgressWriter {
  /** Shows this line in place of the previous one. */
  readonly update: (line: string) => void;
  /** Erases the line, if one was shown. */
  readonly clear: () => void;
}

/** A writer for a terminal stderr, or undefined (no progress at all). */
export function progressWriter(stderr: Writer): ProgressWriter | undefined {
  if (stderr.isTTY !== true) return undefined;
  let shown = false;
  return {
    update(line) {
      shown = true;
      stderr.write(`\r\x1b[K${line}`);
    },
    clear() {
      if (shown) stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}
