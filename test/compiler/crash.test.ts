/**
 * Crash safety: the real `findings compile` killed with SIGKILL at random moments (60 times)
 * never leaves a half-written output or a corrupt index.json, a rule folder that a cold compile
 * creates appears whole or not at all, and the next compile repairs everything (then `--check` is
 * clean, and no temp file or temp folder is left). Needs a fresh build (spawns bin/findings.js).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConstraintIndex } from '../../src/constraints/index-file.js';
import { TEMP_FOLDER } from '../../src/fs/new-folder.js';
import { BIN, GIT_ENV, makeRepo, runFindings } from '../helpers/repo.js';
import { seededRandom } from '../helpers/seed.js';

const N = 150;
const line = (i: number): string =>
  `${JSON.stringify({
    id: `f-${i}`,
    version: 1,
    tier: 'local',
    source: { repo: 'r', session: 's', file: 'f.md', skill: 'k' },
    date: '2026-01-01',
    severity: 'significant',
    category: 'test-gap',
    pattern: `Pattern number ${i}`,
    detection_question: 'Q?',
    checklist_item: 'Do.',
    applicable_languages: ['ts'],
    applicable_when: ['test-gap'],
    status: 'active',
    superseded_by: null,
    dedup_key: `test-gap|pattern-number-${i}|test-gap`,
    hit_count: 0,
    last_cited: null,
    ttl_days: 30,
    confidence: 'high',
  })}\n`;

function killAfter(root: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'compile', '--root', root], { env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
    const t = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

function assertNoHalfFiles(root: string, expected: Map<string, string>, seed: number): void {
  for (const dir of ['.agents/findings', '.agents/planning-rules', '.agents/pre-mortem-checks']) {
    let names: string[] = [];
    try {
      names = readdirSync(path.join(root, dir));
    } catch {
      continue;
    }
    for (const n of names) {
      if (!n.endsWith('.md')) continue;
      const rel = `${dir}/${n}`;
      const want = expected.get(rel);
      if (want !== undefined) expect(readFileSync(path.join(root, rel), 'utf8'), `${rel} (seed ${seed})`).toBe(want);
    }
  }
  const idx = path.join(root, '.agents/constraints/index.json');
  try {
    expect(parseConstraintIndex(readFileSync(idx, 'utf8')).ok).toBe(true);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
}

/** A rule folder a cold compile creates holds every one of its `n` files, or does not exist. */
function assertWholeOrAbsent(root: string, n: number, seed: number): void {
  for (const dir of ['.agents/planning-rules', '.agents/pre-mortem-checks']) {
    const abs = path.join(root, dir);
    if (!existsSync(abs)) continue;
    expect(readdirSync(abs).filter((name) => name.endsWith('.md')).length, `${dir} (seed ${seed})`).toBe(n);
  }
}

describe('crash safety', () => {
  it('SIGKILL at random moments never leaves a half-written file; the next compile repairs everything', async () => {
    // The reference result: compile a copy once, undisturbed.
    const ref = makeRepo({ '.agents/findings/registry.jsonl': Array.from({ length: N }, (_, i) => line(i)).join('') });
    await runFindings(['compile', '--root', ref.root], { cwd: ref.root });
    const expected = new Map<string, string>();
    for (const dir of ['.agents/findings', '.agents/planning-rules', '.agents/pre-mortem-checks']) {
      for (const n of readdirSync(path.join(ref.root, dir)))
        if (n.endsWith('.md')) expected.set(`${dir}/${n}`, readFileSync(path.join(ref.root, dir, n), 'utf8'));
    }
    const repo = makeRepo({ '.agents/findings/registry.jsonl': Array.from({ length: N }, (_, i) => line(i)).join('') });
    // Kill times come from a printed seed: FINDINGS_TEST_SEED=<seed> replays them.
    const { seed, random } = seededRandom('compile SIGKILL test');
    for (let k = 0; k < 60; k += 1) {
      await killAfter(repo.root, 40 + Math.floor(random() * 400));
      assertNoHalfFiles(repo.root, expected, seed);
      // Until the inputs first change, a rule folder is published whole by one rename (src/fs/new-folder.ts).
      if (k <= 5) assertWholeOrAbsent(repo.root, N, seed);
      // Now and then, change the input so kills also land in "updated" and "removed" work.
      if (k % 10 === 5) repo.write('.agents/findings/registry.jsonl', Array.from({ length: N - (k % 3) }, (_, i) => line(i)).join(''));
    }
    repo.write('.agents/findings/registry.jsonl', Array.from({ length: N }, (_, i) => line(i)).join(''));
    const fix = await runFindings(['compile', '--root', repo.root], { cwd: repo.root });
    expect(fix.code).toBe(0);
    const check = await runFindings(['compile', '--root', repo.root, '--check'], { cwd: repo.root });
    expect(check.code, check.stdout).toBe(0);
    for (const [rel, text] of expected) expect(readFileSync(path.join(repo.root, rel), 'utf8')).toBe(text);
    for (const dir of ['.agents/findings', '.agents/planning-rules', '.agents/pre-mortem-checks']) {
      expect(readdirSync(path.join(repo.root, dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    }
    expect(readdirSync(path.join(repo.root, '.agents')).filter((n) => TEMP_FOLDER.test(n))).toEqual([]);
  }, 120_000);
});
