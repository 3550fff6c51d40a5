/** The bin launchers turn on Node's compile cache where the running Node has it, and never fail for it. */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

/** A preload that gives `module` an enableCompileCache stub (Node 20 has none), so the call is observable. */
function runWithStub(body: string): { status: number | null; stdout: string } {
  const stub = path.join(tempDir('findings-ccache-'), 'stub.mjs');
  writeFileSync(
    stub,
    `import module from 'node:module';\nimport { writeFileSync } from 'node:fs';\nmodule.enableCompileCache = () => { ${body} };\n`,
  );
  const r = spawnSync(process.execPath, ['--import', stub, BIN, '--version'], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout };
}

describe('compile cache in the launchers', () => {
  it('is enabled when Node offers it', () => {
    const marker = path.join(tempDir('findings-ccache-'), 'called');
    expect(runWithStub(`writeFileSync(${JSON.stringify(marker)}, 'yes');`).status).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it('a failing compile cache changes nothing', () => {
    const r = runWithStub("throw new Error('cannot write the cache');");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
