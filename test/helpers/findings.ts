/** Steps shared by end-to-end tests that walk the whole loop in a real repository. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runFindings, type TestRepo } from './repo.js';

/** Runs the CLI in-process and expects exit 0; returns stdout. */
export async function expectOk(repo: TestRepo, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await runFindings(args, { cwd: repo.root, env });
  expect(r.code, `${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(0);
  return r.stdout;
}

/**
 * Turns a promoted advisory artifact into a mechanical one, the way a person would: the
 * `compiler:` block of `<fixtureDir>/compiler-block.yaml` (with FINDING replaced by the id) goes
 * into the front matter, and `<fixtureDir>/{positive,negative}.ts` become its fixtures.
 */
export function makeMechanical(repo: TestRepo, id: string, fixtureDir: string): void {
  const file = `.agents/findings/${id}.md`;
  const text = repo.read(file);
  const block = readFileSync(path.join(fixtureDir, 'compiler-block.yaml'), 'utf8').replaceAll('FINDING', id);
  const end = text.indexOf('\n---\n', 4);
  const front = text
    .slice(0, end)
    .replace('detectability: "advisory"', 'detectability: "mechanical"')
    .replace('compiler_targets: ["plan","pre-mortem"]', 'compiler_targets: ["plan","pre-mortem","constraint"]');
  repo.write(file, `${front}\n${block.trimEnd()}${text.slice(end)}`);
  repo.write(`.agents/constraints/fixtures/${id}/positive.ts`, readFileSync(path.join(fixtureDir, 'positive.ts')));
  repo.write(`.agents/constraints/fixtures/${id}/negative.ts`, readFileSync(path.join(fixtureDir, 'negative.ts')));
}
