/** Inline suppressions (docs/hooks.md, "Inline suppressions"): the pure marker rules, then `findings check` and a real commit. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { applySuppressions, findMarkers, sameConstraint, SUPPRESSION_WITHOUT_REASON } from '../../hooks/suppressions.js';
import { diagnostic, hasErrors, type Diagnostic } from '../../src/diagnostics.js';
import { FIXTURES, makeRepo, runFindings } from '../helpers/repo.js';
import { commit, constraint, head, hookedRepo, indexJson, stageIndex } from './setup.js';

describe('findMarkers', () => {
  it.each([
    ['// findings-ignore x: generated code', [{ line: 1, id: 'x', reason: 'generated code' }]],
    ['# findings-ignore x:  vendored  ', [{ line: 1, id: 'x', reason: 'vendored' }]],
    ['/* findings-ignore x: legacy API */', [{ line: 1, id: 'x', reason: 'legacy API' }]],
    ['<!-- findings-ignore x: doc sample -->', [{ line: 1, id: 'x', reason: 'doc sample' }]],
    ['-- findings-ignore x', [{ line: 1, id: 'x', reason: null }]],
    ['// findings-ignore x:   ', [{ line: 1, id: 'x', reason: null }]],
    ['a\r\n// findings-ignore x: crlf\r\n', [{ line: 2, id: 'x', reason: 'crlf' }]],
    ['// findings-ignore', []],
    ['plain code', []],
  ])('%j', (text, expected) => {
    expect(findMarkers(text)).toEqual(expected);
  });
});

describe('sameConstraint accepts both id forms', () => {
  it.each([
    ['x', 'x', true],
    ['x', 'x', true],
    ['x', 'x', true],
    ['x', 'x', true],
    ['y', 'x', false],
    ['cx', 'x', false],
  ])('%s ~ %s', (marker, id, expected) => {
    expect(sameConstraint(marker, id)).toBe(expected);
  });
});

describe('applySuppressions', () => {
  const hit = (line: number, id = 'x', severity: Diagnostic['severity'] = 'error'): Diagnostic =>
    diagnostic({ file: 'a.js', line, column: 1, severity, ruleId: `constraint/${id}`, message: 'm' });
  const run = (text: string, hits: Diagnostic[]): Diagnostic[] => applySuppressions(hits, new Map([['a.js', text]]));

  it.each([
    ['the same line', 'eval(1); // findings-ignore x: ok here\n', 1, true],
    ['the line before', '// findings-ignore x: ok here\neval(1);\n', 2, true],
    ['two lines before', '// findings-ignore x: ok here\n\neval(1);\n', 3, false],
    ['the line after', 'eval(1);\n// findings-ignore x: ok here\n', 1, false],
    ['another constraint', '// findings-ignore y: ok here\neval(1);\n', 2, false],
    ['the bare id form', '// findings-ignore x: ok here\neval(1);\n', 2, true],
  ])('a marker on %s', (_name, text, line, suppressed) => {
    const [d] = run(text, [hit(line)]);
    expect(d!.suppressed !== undefined).toBe(suppressed);
    if (suppressed) expect(d!.suppressed).toEqual({ kind: 'inSource', reason: 'ok here' });
  });

  it('one marker suppresses only the hit it is next to', () => {
    const out = run('// findings-ignore x: ok\neval(1);\neval(2);\n', [hit(2), hit(3)]);
    expect(out.map((d) => d.suppressed?.reason ?? null)).toEqual(['ok', null]);
    expect(hasErrors(out)).toBe(true);
    expect(hasErrors(out.slice(0, 1))).toBe(false);
  });

  it('a marker without a reason suppresses nothing and is an error for an active constraint, a warning for a shadow', () => {
    const active = run('// findings-ignore x\neval(1);\n', [hit(2)]);
    expect(active.map((d) => `${d.ruleId}:${d.line}:${d.severity}:${d.suppressed === undefined}`)).toEqual([
      'constraint/x:2:error:true',
      `${SUPPRESSION_WITHOUT_REASON}:1:error:true`,
    ]);
    const shadow = run('eval(1); // findings-ignore x:\n', [hit(1, 'x', 'warning')]);
    expect(shadow.map((d) => `${d.ruleId}:${d.severity}`)).toEqual(['constraint/x:warning', `${SUPPRESSION_WITHOUT_REASON}:warning`]);
  });

  it('files under .agents/ and whole-file problems are left alone', () => {
    const d = diagnostic({ file: '.agents/constraints/index.json', line: 3, ruleId: 'constraint/x', message: 'could not be evaluated' });
    expect(applySuppressions([d], new Map([['.agents/constraints/index.json', '// findings-ignore x: no\n\n\n']]))).toEqual([d]);
  });
});

const SUPPRESSED = 'const a = 1;\n// findings-ignore x: parses a trusted build-time constant\nexport const y = eval("1");\n';
const CLEAN_HIT = 'export const z = eval("2");\n';

describe('findings check with inline suppressions', () => {
  it('json carries suppressed: true with the reason, sarif an inSource suppression, stylish a count; exit 0', async () => {
    const repo = makeRepo({ '.agents/constraints/index.json': indexJson(constraint('x')), 'a.js': SUPPRESSED });
    repo.commitAll('init');
    const json = await runFindings(['check', '--all', '--format', 'json'], { cwd: repo.root });
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(parsed).toHaveLength(1);
    expect(parsed[0]).toMatchObject({
      file: 'a.js',
      line: 3,
      severity: 'error',
      ruleId: 'constraint/x',
      suppressed: true,
      reason: 'parses a trusted build-time constant',
    });
    expect(parsed[0]!['baselined']).toBeUndefined();

    const sarif = await runFindings(['check', '--all', '--format', 'sarif'], { cwd: repo.root });
    expect(sarif.code).toBe(0);
    const result = (JSON.parse(sarif.stdout) as { runs: { results: Record<string, unknown>[] }[] }).runs[0]!.results[0]!;
    expect(result['suppressions']).toEqual([{ kind: 'inSource', justification: 'parses a trusted build-time constant' }]);

    const stylish = await runFindings(['check', '--all'], { cwd: repo.root });
    expect(stylish.code).toBe(0);
    expect(stylish.stdout).not.toContain('a.js:3');
    expect(stylish.stdout).toContain('1 hit not counted (1 suppressed inline)');

    const listed = await runFindings(['check', '--all', '--report-suppressions'], { cwd: repo.root });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('a.js:3:18  suppressed  Title of x');
    expect(listed.stdout).toContain('reason: parses a trusted build-time constant');
  });

  it('an unsuppressed hit still blocks beside a suppressed one; a reason-less marker blocks', async () => {
    const repo = makeRepo({ '.agents/constraints/index.json': indexJson(constraint('x')), 'a.js': SUPPRESSED, 'b.js': CLEAN_HIT });
    repo.commitAll('init');
    const r = await runFindings(['check', '--all', '--format', 'json'], { cwd: repo.root });
    expect(r.code).toBe(1);
    repo.write('b.js', '// findings-ignore x\nexport const z = eval("2");\n');
    repo.git('add', 'b.js');
    const noReason = await runFindings(['check', '--all'], { cwd: repo.root });
    expect(noReason.code).toBe(1);
    expect(noReason.stdout).toContain(`b.js:1  error  "findings-ignore x" has no reason`);
    expect(noReason.stdout).toContain(SUPPRESSION_WITHOUT_REASON);
  });

  it('a reason-less marker only warns for a shadow constraint', async () => {
    const repo = makeRepo({
      '.agents/constraints/index.json': indexJson(constraint('x', { status: 'shadow' })),
      'b.js': '// findings-ignore x\nexport const z = eval("2");\n',
    });
    repo.commitAll('init');
    const r = await runFindings(['check', '--all'], { cwd: repo.root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`b.js:1  warning  "findings-ignore x" has no reason`);
  });
});

describe('a real commit through the installed hook', () => {
  it('a suppressed hit of an active constraint commits; the same hit without the marker is refused', async () => {
    const repo = await hookedRepo();
    stageIndex(repo, constraint('x'));
    repo.write('a.js', SUPPRESSED);
    repo.git('add', 'a.js');
    const ok = commit(repo, []);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('1 hit not counted (1 suppressed inline)');
    const before = head(repo);
    repo.write('b.js', CLEAN_HIT);
    repo.git('add', 'b.js');
    expect(commit(repo, []).code).not.toBe(0);
    expect(head(repo)).toBe(before);
  });
});

describe('findings explain counts the suppressions', () => {
  it('counts the markers naming the constraint in tracked files at HEAD, in either id form', async () => {
    const repo = makeRepo({
      '.agents/constraints/index.json': indexJson(constraint('x')),
      'a.js': SUPPRESSED,
      'b.js': '// findings-ignore x: a second one\neval(2);\n// findings-ignore x\neval(3);\n',
      'c.js': '// findings-ignore c-other: not this constraint\n',
    });
    repo.commitAll('init');
    repo.write('untracked.js', '// findings-ignore x: not tracked\n');
    const text = await runFindings(['explain', 'x'], { cwd: repo.root });
    expect(text.stdout).toContain('inline suppressions at HEAD: 2 in 2 file(s), 1 without a reason (they suppress nothing)');
    const json = JSON.parse((await runFindings(['explain', 'x', '--format', 'json'], { cwd: repo.root })).stdout) as {
      constraint: { suppressions: unknown };
    };
    expect(json.constraint.suppressions).toEqual({ markers: 2, without_reason: 1, files: 2 });
  });
});

describe('output shapes', () => {
  it('SARIF with inSource and external suppressions is valid against the official 2.1.0 schema', async () => {
    const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(path.join(FIXTURES, 'sarif', 'sarif-schema-2.1.0.json'), 'utf8')) as object);
    const { sarifLog } = await import('../../src/output/sarif.js');
    const d = (line: number, suppressed?: Diagnostic['suppressed']) =>
      diagnostic({ file: 'a.js', line, column: 1, ruleId: 'constraint/x', message: 'm', ...(suppressed ? { suppressed } : {}) });
    const log = sarifLog(
      [d(1, { kind: 'inSource', reason: 'why' }), d(2, { kind: 'baseline', reason: 'in the baseline b.json' }), d(3)],
      '1.0.0',
      [constraint('x')],
    ) as { runs: { results: { suppressions?: unknown }[] }[] };
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    expect(log.runs[0]!.results.map((r) => r.suppressions ?? null)).toEqual([
      [{ kind: 'inSource', justification: 'why' }],
      [{ kind: 'external', justification: 'in the baseline b.json' }],
      null,
    ]);
  });

  it('a suppressed shadow warning does not count towards --max-warnings', async () => {
    const repo = makeRepo({ '.agents/constraints/index.json': indexJson(constraint('x', { status: 'shadow' })), 'a.js': SUPPRESSED });
    repo.commitAll('init');
    expect((await runFindings(['check', '--all', '--max-warnings', '0'], { cwd: repo.root })).code).toBe(0);
    repo.write('b.js', CLEAN_HIT);
    repo.git('add', 'b.js');
    expect((await runFindings(['check', '--all', '--max-warnings', '0'], { cwd: repo.root })).code).toBe(1);
  });
});
