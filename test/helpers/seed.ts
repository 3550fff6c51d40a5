/**
 * Reproducible randomness for fault tests (SIGKILL at random moments): the seed comes from
 * FINDINGS_TEST_SEED (or the older CRASH_SEED), else from the clock, and is always printed, so a
 * failing run is replayed with `FINDINGS_TEST_SEED=<seed> npx vitest run <file>`.
 */
import { prng } from '../../src/prng.js';

export { prng };

/** The seed for this run, printed with the test's name; and a PRNG over it. */
export function seededRandom(name: string, env: NodeJS.ProcessEnv = process.env): { seed: number; random: () => number } {
  const given = env['FINDINGS_TEST_SEED'] ?? env['CRASH_SEED'];
  const seed = given !== undefined && given.trim() !== '' && Number.isInteger(Number(given)) ? Number(given) : Date.now() % 1_000_000;
  console.log(`${name}: seed ${seed} (replay with FINDINGS_TEST_SEED=${seed})`);
  return { seed, random: prng(seed) };
}
