/**
 * Golden tests: each test/fixtures/compiler/<case>/input is copied into a fresh git repository,
 * compiled, and the whole resulting tree (plus the diagnostics, as `.diagnostics.json`) is
 * compared byte for byte with <case>/expected. `UPDATE_GOLDEN=1` rewrites the expected folders.
 * The real agentops data (test/fixtures/agentops, see its README) is one of the cases.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCompile } from '../../compiler/run.js';
import { FIXTURES, makeRepo } from '../helpers/repo.js';

const DIR = path.join(FIXTURES, 'compiler');
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

function walk(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (rel === '' && e.name === '.git') continue;
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(root, child));
    else out.push(child);
  }
  return out.sort();
}

function snapshot(root: string): Map<string, Buffer> {
  return new Map(walk(root).map((f) => [f, readFileSync(path.join(root, f))]));
}

const cases: { name: string; input: string; expected: string }[] = readdirSync(DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(path.join(DIR, e.name, 'input')))
  .map((e) => ({ name: e.name, input: path.join(DIR, e.name, 'input'), expected: path.join(DIR, e.name, 'expected') }));
cases.push({ name: 'agentops', input: path.join(FIXTURES, 'agentops'), expected: path.join(DIR, 'agentops-expected') });

describe('golden compile', () => {
  for (const c of cases) {
    it(`${c.name}: compiles to the expected tree, and a second compile changes nothing`, async () => {
      const repo = makeRepo();
      cpSync(c.input, repo.root, { recursive: true, filter: (src) => !src.endsWith('README.md') || !src.includes('agentops') });
      const first = await runCompile(repo.root, { check: false });
      writeFileSync(path.join(repo.root, '.diagnostics.json'), `${JSON.stringify(first.diagnostics, null, 2)}\n`);
      const got = snapshot(repo.root);
      if (UPDATE) {
        rmSync(c.expected, { recursive: true, force: true });
        for (const [f, b] of got) {
          mkdirSync(path.dirname(path.join(c.expected, f)), { recursive: true });
          writeFileSync(path.join(c.expected, f), b);
        }
      }
      const want = snapshot(c.expected);
      expect([...got.keys()]).toEqual([...want.keys()]);
      for (const [f, b] of want) expect(got.get(f)?.equals(b), `${f} differs`).toBe(true);
      rmSync(path.join(repo.root, '.diagnostics.json'));
      const second = await runCompile(repo.root, { check: false });
      expect(second.changes).toEqual([]);
      const check = await runCompile(repo.root, { check: true });
      expect(check.changes).toEqual([]);
    });
  }
});
