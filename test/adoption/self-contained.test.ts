/**
 * A clean clone passes its own tests: no test reads outside the repository, the agentops data is
 * vendored with its origin; JSON parse reasons read the same on Node 20, 22 and 24; `prepare`
 * explains (rather than failing on `tsc: not found`) when it cannot build.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonErrorReason, parseJsonDocument } from '../../src/jsonl.js';
import { FIXTURES, PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) return n === 'fixtures' ? [] : sources(p);
    return /\.(ts|mjs|js)$/.test(n) ? [p] : [];
  });
}

describe('self-contained tests', () => {
  it('no test source names a folder outside the repository', () => {
    const offenders = sources(path.join(PACKAGE_ROOT, 'test')).filter(
      (f) => path.basename(f) !== 'self-contained.test.ts' && /\.\.\/shared|\/work\/shared/.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('the agentops reference data is vendored with its origin and licence', () => {
    const readme = readFileSync(path.join(FIXTURES, 'agentops/README.md'), 'utf8');
    expect(readme).toMatch(/agentops/);
    expect(readme).toMatch(/Apache License 2\.0/);
    expect(readme).toMatch(/commit/);
    expect(readdirSync(path.join(FIXTURES, 'agentops-tooling')).sort()).toEqual(['INTEROP.md', 'index.upstream-example.json']);
  });
});

describe('current Node lines', () => {
  it('drops the "(line L column C)" newer V8 appends, so the position is said once', () => {
    const v24 = new SyntaxError('Expected double-quoted property name in JSON at position 12 (line 3 column 1)');
    expect(jsonErrorReason(v24)).toBe('invalid JSON: Expected double-quoted property name in JSON at position 12');
    expect(parseJsonDocument('{\n  "a": 1,\n}')).toEqual({
      ok: false,
      line: 3,
      column: 1,
      reason: 'invalid JSON: Expected double-quoted property name',
    });
  });

  it('engines names the oldest supported Node, and the node-lines script covers 20, 22 and 24', () => {
    const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
      scripts: Record<string, string>;
    };
    expect(pkg.engines.node).toBe('>=20.19');
    expect(pkg.scripts['test:node-lines']).toContain('scripts/test-node-lines.sh');
    expect(readFileSync(path.join(PACKAGE_ROOT, 'scripts/test-node-lines.sh'), 'utf8')).toContain('NODE_LINES:-20 22 24');
  });
});

describe('prepare', () => {
  const copy = (): string => {
    const dir = tempDir('findings-prepare-');
    mkdirSync(path.join(dir, 'scripts'));
    copyFileSync(path.join(PACKAGE_ROOT, 'scripts/prepare.mjs'), path.join(dir, 'scripts/prepare.mjs'));
    writeFileSync(path.join(dir, 'package.json'), '{ "name": "x", "type": "module" }\n');
    return dir;
  };

  it('without TypeScript and without dist/: exit 1 saying what to run, not "tsc: not found"', () => {
    const dir = copy();
    const r = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('dist/ is not built and TypeScript is not installed');
    expect(r.stderr).toContain('npm ci');
  });

  it('without TypeScript but with dist/ (an unpacked tarball): nothing to do, exit 0', () => {
    const dir = copy();
    mkdirSync(path.join(dir, 'dist/src/cli'), { recursive: true });
    mkdirSync(path.join(dir, 'dist/validators'));
    writeFileSync(path.join(dir, 'dist/src/cli/main.js'), '');
    const r = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });
});
