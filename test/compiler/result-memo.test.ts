/**
 * The compile-result memo (compiler/result-memo.ts; docs/compiler.md "Speed"): a compile whose
 * every input is byte for byte what a compile that found nothing to write read gives that
 * compile's answer without parsing anything; any changed input is compiled in full. And the
 * modules each path loads: no compile loads the Markdown stack, and a memo hit loads no parser.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stampsOf } from '../../compiler/result-memo.js';
import { runCompile } from '../../compiler/run.js';
import { BIN, FIXTURES, makeRepo, PACKAGE_ROOT, tempDir, type TestRepo } from '../helpers/repo.js';

const INPUT = path.join(FIXTURES, 'compiler', 'lifecycle', 'input');
const MEMO = '.git/findings-compiler/compile-memo.json';
const TRACE = path.join(PACKAGE_ROOT, 'test/helpers/module-trace.mjs');

/** A repository compiled once (outputs written) and then once more (nothing to write: the memo is saved). */
async function settled(): Promise<TestRepo> {
  const repo = makeRepo();
  cpSync(INPUT, repo.root, { recursive: true });
  const first = await runCompile(repo.root, { check: false });
  expect(first.changes.length).toBeGreaterThan(0);
  expect(existsSync(path.join(repo.root, MEMO))).toBe(false);
  const second = await runCompile(repo.root, { check: false });
  expect(second.changes).toEqual([]);
  expect(existsSync(path.join(repo.root, MEMO))).toBe(true);
  return repo;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const memoDoc = (repo: TestRepo) =>
  JSON.parse(readFileSync(path.join(repo.root, MEMO), 'utf8')) as { result: { stamps: { of: string[] } | null } };

describe('compile-result memo', () => {
  it('a memo hit gives the full compile’s diagnostics and index, for compile and --check', async () => {
    const repo = await settled();
    const fullCheck = await runCompile(repo.root, { check: true });
    const memoDoc = readFileSync(path.join(repo.root, MEMO), 'utf8');
    // The lifecycle case has a warning (a negative control that is flagged): it must come back from the memo.
    expect(fullCheck.diagnostics.map((d) => d.ruleId)).toContain('compiler/replay');
    const hit = await runCompile(repo.root, { check: false });
    const hitCheck = await runCompile(repo.root, { check: true });
    expect(hit).toEqual({ diagnostics: fullCheck.diagnostics, changes: [], kept: fullCheck.kept });
    // f-gone has an index entry but no artifact: kept as it is, and said so (docs/compiler.md).
    expect(fullCheck.kept).toEqual(['f-gone']);
    expect(hitCheck).toEqual(fullCheck);
    // A hit writes nothing, the memo included.
    expect(readFileSync(path.join(repo.root, MEMO), 'utf8')).toBe(memoDoc);
    // Deleting the memo changes nothing but time.
    rmSync(path.join(repo.root, MEMO));
    expect(await runCompile(repo.root, { check: true })).toEqual(fullCheck);
  });

  it('a changed fixture is compiled in full', async () => {
    const repo = await settled();
    const before = await runCompile(repo.root, { check: false });
    expect(before.diagnostics.filter((d) => d.file === '.agents/findings/f-m1.md')).toEqual([]);
    // The positive fixture stops being flagged: f-m1 no longer qualifies.
    writeFileSync(path.join(repo.root, '.agents/constraints/fixtures/f-m1/bad.ts'), 'safe("1")\n');
    const after = await runCompile(repo.root, { check: false });
    expect(after.diagnostics.some((d) => d.file === '.agents/findings/f-m1.md' && d.ruleId === 'compiler/replay')).toBe(true);
  });

  it('a removed output, an edited output and a changed artifact are compiled in full', async () => {
    const repo = await settled();
    const rule = path.join(repo.root, '.agents/planning-rules/f-m1.md');
    const text = readFileSync(rule, 'utf8');
    rmSync(rule);
    expect((await runCompile(repo.root, { check: true })).changes).toEqual([{ path: '.agents/planning-rules/f-m1.md', action: 'missing' }]);
    expect((await runCompile(repo.root, { check: false })).changes).toEqual([
      { path: '.agents/planning-rules/f-m1.md', action: 'created' },
    ]);
    expect(readFileSync(rule, 'utf8')).toBe(text);
    // An edit that changes what the rule says (an edit upstream's reader cannot see is kept: docs/compiler.md).
    writeFileSync(rule, text.replace('Pattern of f-m1', 'Another pattern'));
    expect((await runCompile(repo.root, { check: false })).changes).toEqual([
      { path: '.agents/planning-rules/f-m1.md', action: 'updated' },
    ]);
    const artifact = path.join(repo.root, '.agents/findings/f-m1.md');
    writeFileSync(artifact, readFileSync(artifact, 'utf8').replace('Pattern of f-m1', 'Pattern of f-m1, reworded'));
    const changed = await runCompile(repo.root, { check: false });
    expect(changed.changes.map((c) => c.path)).toContain('.agents/planning-rules/f-m1.md');
  });
});

describe('stamps: a file whose stamp is unchanged is not read', () => {
  // settledMs: 0 counts every file changed before the run as settled (by default it is 2 s, so
  // the files a test has just written are read, whatever their stamp).
  const settledRun = (repo: TestRepo, check = false) => runCompile(repo.root, { check, settledMs: 0 });

  it('a compile with every stamp as recorded gives the full answer; a same-size edit is still seen', async () => {
    const repo = makeRepo();
    cpSync(INPUT, repo.root, { recursive: true });
    await runCompile(repo.root, { check: false });
    await pause(20);
    const full = await settledRun(repo);
    expect(full.changes).toEqual([]);
    expect(memoDoc(repo).result.stamps?.of.length).toBeGreaterThan(10);
    const fullCheck = await settledRun(repo, true);
    // Answered from the stamps: the same diagnostics and index.
    expect(await settledRun(repo)).toEqual(full);
    expect(await settledRun(repo, true)).toEqual(fullCheck);
    // An edit of the same size: size and inode stay, the change time does not.
    const rule = path.join(repo.root, '.agents/planning-rules/f-m1.md');
    const text = readFileSync(rule, 'utf8');
    writeFileSync(rule, text.replace('Pattern of f-m1', 'Pattern of f-m9'));
    await pause(20);
    expect((await settledRun(repo)).changes).toEqual([{ path: '.agents/planning-rules/f-m1.md', action: 'updated' }]);
    expect(readFileSync(rule, 'utf8')).toBe(text);
  });

  it('no stamps are kept while a file has changed too recently for its stamp to prove its bytes', async () => {
    const repo = makeRepo();
    cpSync(INPUT, repo.root, { recursive: true });
    await runCompile(repo.root, { check: false });
    // The default: everything was written within the last 2 s.
    expect((await runCompile(repo.root, { check: false })).changes).toEqual([]);
    expect(memoDoc(repo).result.stamps).toBe(null);
    const paths = ['.agents/findings/registry.jsonl', '.agents/planning-rules/f-m1.md', '.agents/absent.md'];
    const later = Date.now() + 60_000;
    expect(stampsOf(repo.root, paths, later)?.[2]).toBe('-');
    expect(stampsOf(repo.root, paths, Date.now() - 60_000)).toBe(null);
  });
});

function modulesLoaded(root: string): string[] {
  const out = path.join(tempDir('findings-trace-'), 'modules.txt');
  const r = spawnSync(process.execPath, ['--import', TRACE, BIN, 'compile', '--root', root], {
    cwd: root,
    env: { ...process.env, FINDINGS_MODULE_TRACE: out },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(out, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

const MARKDOWN = /\/node_modules\/(?:unified|remark[^/]*|micromark[^/]*|mdast[^/]*)\//;
const PARSERS = /\/node_modules\/(?:yaml|js-yaml|gray-matter|re2js|ajv[^/]*)\/|\/validators\/|\/compiler\/compile\.js$/;

describe('modules a compile loads', () => {
  it('no compile loads the Markdown stack, and a memo hit loads no parser, validator, matcher or the compiler', () => {
    const repo = makeRepo();
    cpSync(INPUT, repo.root, { recursive: true });
    const cold = modulesLoaded(repo.root);
    expect(cold.some((m) => m.includes('/node_modules/gray-matter/'))).toBe(true);
    expect(cold.filter((m) => MARKDOWN.test(m))).toEqual([]);
    const full = modulesLoaded(repo.root);
    expect(full.some((m) => /\/compiler\/compile\.js$/.test(m))).toBe(true);
    const hit = modulesLoaded(repo.root);
    expect(hit.some((m) => m.includes('/compiler/result-memo.js'))).toBe(true);
    expect(hit.filter((m) => PARSERS.test(m) || MARKDOWN.test(m))).toEqual([]);
  });
});
