/** ESLint's --quiet and --max-warnings on `check`, `validate` and the hooks. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../src/diagnostics.js';
import { applyWarningOptions } from '../../src/cli/warnings.js';
import { makeRepo, runFindings } from '../helpers/repo.js';
import { commit, constraint, hookedRepo, stageIndex } from '../hooks/setup.js';
import { entry, jsonl, REGISTRY } from '../registry/entries.js';

const err = diagnostic({ file: 'a.js', line: 1, ruleId: 'r/e', message: 'e' });
const warn = diagnostic({ file: 'a.js', line: 2, severity: 'warning', ruleId: 'r/w', message: 'w' });
const info = diagnostic({ file: 'a.js', line: 3, severity: 'info', ruleId: 'r/i', message: 'i' });

describe('applyWarningOptions', () => {
  it.each([
    [{}, 3, false],
    [{ quiet: true }, 1, false],
    [{ maxWarnings: 1 }, 3, false],
    [{ maxWarnings: 0 }, 3, true],
    [{ maxWarnings: -1 }, 3, false],
    [{ quiet: true, maxWarnings: 0 }, 1, true],
  ])('%j → %i shown, too many: %s', (options, shown, tooMany) => {
    const v = applyWarningOptions([err, warn, info], options);
    expect(v.shown).toHaveLength(shown);
    expect(v.tooMany !== null).toBe(tooMany);
  });
});

const SHADOW_HIT = 'eval("1");\n';

describe('findings check / validate', () => {
  it.each([
    [[], 0, true],
    [['--max-warnings', '1'], 0, true],
    [['--max-warnings', '0'], 1, true],
    [['--quiet'], 0, false],
    [['--quiet', '--max-warnings', '0'], 1, false],
    [['--max-warnings', 'x'], 2, false],
    [['--max-warnings', '-2'], 2, false],
  ])('check %j exits %i (warning shown: %s)', async (args, code, shown) => {
    const repo = makeRepo({ 'a.js': SHADOW_HIT });
    stageIndex(repo, constraint('shadow', { status: 'shadow' }));
    repo.git('add', 'a.js');
    const r = await runFindings(['check', ...args], { cwd: repo.root });
    expect(r.code, r.stderr).toBe(code);
    expect(r.stdout.includes('a.js:1:1  warning')).toBe(shown);
    if (code === 1) expect(r.stderr).toContain('too many warnings: 1 (maximum 0');
  });

  it('validate honours --quiet and --max-warnings', async () => {
    const repo = makeRepo();
    repo.write(REGISTRY, jsonl(entry({ dedup_key: 'just-a-slug' })));
    const plain = await runFindings(['validate'], { cwd: repo.root });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('registry/dedup-key-shape');
    const quiet = await runFindings(['validate', '--quiet'], { cwd: repo.root });
    expect(quiet).toMatchObject({ code: 0, stdout: '' });
    const strict = await runFindings(['validate', '--max-warnings', '0', '--format', 'json'], { cwd: repo.root });
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toHaveLength(1);
    expect(strict.stderr).toContain('findings validate: too many warnings');
  });
});

describe('hooks', () => {
  it('a husky line with --max-warnings 0 blocks a commit with a shadow hit; --quiet hides it', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, constraint('shadow', { status: 'shadow' }));
    repo.write('a.js', SHADOW_HIT);
    repo.git('add', 'a.js');
    writeFileSync(path.join(repo.root, '.husky/pre-commit'), 'findings hook pre-commit --quiet --max-warnings 0\n');
    const blocked = commit(repo, []);
    expect(blocked.code).not.toBe(0);
    expect(blocked.stdout).toContain('too many warnings: 1 (maximum 0');
    expect(blocked.stdout).not.toContain('a.js:1:1');
    writeFileSync(path.join(repo.root, '.husky/pre-commit'), 'findings hook pre-commit --quiet\n');
    const passed = commit(repo, []);
    expect(passed.code, passed.stdout).toBe(0);
    expect(passed.stdout).not.toContain('a.js:1:1');
  });
});
