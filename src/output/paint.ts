/**
 * Colours (picocolors): on a TTY by default; `FORCE_COLOR` forces them (also into a pipe, as in
 * CI logs), `FORCE_COLOR=0|false` turns them off, and a non-empty `NO_COLOR` always wins
 * (no-color.org). The decision is made here from the command's own env and stream, never from
 * `process`, so in-process tests see what the bin would do.
 */
import { createColors } from 'picocolors';

export interface Paint {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const identity = (s: string): string => s;
export const plain: Paint = { red: identity, yellow: identity, green: identity, dim: identity, bold: identity };

const colors = createColors(true);
const colored: Paint = { red: colors.red, yellow: colors.yellow, green: colors.green, dim: colors.dim, bold: colors.bold };

/** Whether a stream gets colours, by the environment conventions above. Pure. */
export function colorEnabled(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return isTTY;
}

export function paintFor(isTTY: boolean, env: NodeJS.ProcessEnv): Paint {
  return colorEnabled(isTTY, env) ? colored : plain;
}
