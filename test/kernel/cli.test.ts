import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../../src/cli/main.js';
import { VERSION } from '../../src/version.js';
import { BIN, PACKAGE_ROOT, runFindings, spawnFindings, tempDir } from '../helpers/repo.js';

describe('findings CLI', () => {
  it('exits 2 with the command list when called without a command', async () => {
    const r = await runFindings([], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: findings <command>');
  });
  it('exits 2 on an unknown command and on an unknown option', async () => {
    expect((await runFindings(['nope'], { cwd: tempDir() })).code).toBe(2);
    const r = await runFindings(['validate', '--bogus'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--bogus'");
  });
  it('keeps VERSION in step with package.json', () => {
    const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
  it('lists every command once', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });
  it('stops quietly when the reader of its output goes away (| head)', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [BIN, '--help'], { cwd: tempDir() });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise((r) => child.on('close', r));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
  it('runs through the committed launcher', async () => {
    const r = await spawnFindings(['--version'], { cwd: tempDir() });
    expect(r).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });
});
