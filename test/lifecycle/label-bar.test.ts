/** Labels given after activation that take an active constraint below the bar are reported. */
import { describe, expect, it } from 'vitest';
import { constraint, indexJson } from '../hooks/setup.js';
import { makeRepo, runFindings } from '../helpers/repo.js';

describe('constraint label on an active constraint', () => {
  it('warns when the labels now give a precision below the activation bar', async () => {
    const c = constraint('x', { status: 'active', globs: ['src/**/*.ts'] });
    const hit = (n: number) => ({
      id: `aaaaaaaa:src/a.ts:${n}`,
      commit: 'a'.repeat(40),
      path: 'src/a.ts',
      line: n,
      label: 'true_positive',
    });
    const measurement = {
      version: 1,
      constraint_id: 'x',
      measured_at_commit: 'a'.repeat(40),
      range: { since: null, commits: null },
      commits: 1,
      detector: c.detector,
      applies_to: c.applies_to,
      samples: 1,
      hits: [hit(1), hit(2), hit(3)],
      errors: [],
    };
    const repo = makeRepo({
      '.agents/constraints/index.json': indexJson(c),
      '.agents/constraints/measurements/x.json': `${JSON.stringify(measurement, null, 2)}\n`,
    });
    const fine = await runFindings(['constraint', 'label', 'x', 'aaaaaaaa:src/a.ts:1', '--true-positive'], { cwd: repo.root });
    expect(fine.code).toBe(0);
    expect(fine.stdout + fine.stderr).not.toContain('lifecycle/active-below-precision');
    const r = await runFindings(['constraint', 'label', 'x', 'aaaaaaaa:src/a.ts:2', '--false-positive'], { cwd: repo.root });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toContain('lifecycle/active-below-precision');
    expect(r.stdout + r.stderr).toContain('precision 0.6666 < 0.95 (2 of 3 true)');
  });
});

describe('constraint measure output', () => {
  it('names the hits still to label and the command that labels them', async () => {
    const c = constraint('y', { status: 'shadow', globs: ['src/**/*.js'] });
    const repo = makeRepo({ '.agents/constraints/index.json': indexJson(c), 'src/a.js': 'x = eval("1");\n' });
    const sha = repo.commitAll('add a');
    const r = await runFindings(['constraint', 'measure'], { cwd: repo.root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`1 hit(s) to label, e.g.: ${sha.slice(0, 8)}:src/a.js:1`);
    expect(r.stdout).toContain(
      'label them: findings constraint label y --interactive [--sample]  ' +
        '(or: findings constraint sample y > labels.txt; edit; findings constraint label y --from labels.txt)',
    );
  });
});
