/** Colours: only on a TTY, never when NO_COLOR is set (no-color.org). */
import { styleText } from 'node:util';

export interface Paint {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const identity = (s: string): string => s;
export const plain: Paint = { red: identity, yellow: identity, green: identity, dim: identity, bold: identity };

const colored: Paint = {
  red: (s) => styleText('red', s),
  yellow: (s) => styleText('yellow', s),
  green: (s) => styleText('green', s),
  dim: (s) => styleText('dim', s),
  bold: (s) => styleText('bold', s),
};

export function paintFor(isTTY: boolean, env: NodeJS.ProcessEnv): Paint {
  if (!isTTY || (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') || env['FORCE_COLOR'] === '0') return plain;
  return colored;
}
