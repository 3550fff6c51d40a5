import type { Logger } from './logger';

/** Splits a comma-separated list; empty items are an error. */
export function parseList(input: string, log: Logger): string[] {
  log.debug('parseList');
  const items = input.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new Error('empty item in list');
  return items;
}
