/**
 * The bin launchers (bin/, CommonJS) in a package whose dist/ was never built: each says what to
 * run and exits 2, whatever the command, the commit hook's fast path included (docs/stack-pitfalls.md#2).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

describe('bin launchers without dist/', () => {
  it('print what to run and exit 2', () => {
    const pkg = tempDir('findings-nodist-');
    cpSync(path.join(PACKAGE_ROOT, 'bin'), path.join(pkg, 'bin'), { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), '{"type": "module"}\n');
    for (const [bin, args] of [
      ['findings.js', ['--version']],
      ['findings.js', ['hook', 'pre-commit']],
      ['findings-compile.js', []],
    ] as const) {
      const r = spawnSync(process.execPath, [path.join(pkg, 'bin', bin), ...args], { cwd: pkg, encoding: 'utf8' });
      expect(r.status, `${bin} ${args.join(' ')}`).toBe(2);
      expect(r.stderr).toMatch(/^findings(-compile)?: the compiled code in dist\/ is missing; run `npm install`/);
      expect(r.stderr).not.toContain('    at ');
    }
  });
});
