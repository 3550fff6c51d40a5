/** Pure parts: patch parsing, C-unquoting, pre-push lines, SARIF and GitHub renderers. */
import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../src/diagnostics.js';
import { parseAddedLines, unquoteC } from '../../src/git/hooks.js';
import { topLevelText } from '../../src/git/project-root.js';
import { ANNOTATION_CAP, escapeData, escapeProperty, formatGithub } from '../../src/output/github.js';
import { formatSarif } from '../../src/output/sarif.js';
import { parsePushLines } from '../../hooks/pre-push.js';
import { appendMissingLines } from '../../hooks/init.js';

describe('parseAddedLines', () => {
  it('reads added lines per new path and skips hunk bodies by count', () => {
    const patch = [
      'diff --git a/x b/x',
      '--- a/x',
      '+++ b/x',
      '@@ -1,0 +2,2 @@',
      '+++ b/not-a-header',
      '+two',
      '@@ -5 +7 @@',
      '-old',
      '+new',
      '\\ No newline at end of file',
      'diff --git a/gone b/gone',
      '--- a/gone',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      'diff --git "a/t\\tb" "b/t\\tb"',
      '+++ "b/sp ace\\303\\251\\"q\\""\t',
      '@@ -0,0 +1 @@',
      '+hi',
      '',
    ].join('\n');
    // Paths as git prints them (from the top level): compared as text here.
    const m = new Map([...parseAddedLines(patch)].map(([p, lines]) => [topLevelText(p), lines]));
    expect([...m.keys()]).toEqual(['x', 'sp aceé"q"']);
    expect([...m.get('x')!]).toEqual([2, 3, 7]);
    expect([...m.get('sp aceé"q"')!]).toEqual([1]);
  });
  it('unquotes C-style names', () => {
    expect(unquoteC('"a\\nb\\\\c\\"d"')).toBe('a\nb\\c"d');
    expect(unquoteC('"\\303\\274"\t')).toBe('ü');
  });
});

describe('parsePushLines', () => {
  it('keeps well-formed lines, including deletions', () => {
    const a = 'a'.repeat(40);
    const z = '0'.repeat(40);
    expect(parsePushLines(`refs/heads/x ${a} refs/heads/x ${z}\ngarbage\n(delete) ${z} refs/heads/y ${a}\n`)).toEqual([
      { localRef: 'refs/heads/x', localSha: a, remoteRef: 'refs/heads/x', remoteSha: z },
      { localRef: '(delete)', localSha: z, remoteRef: 'refs/heads/y', remoteSha: a },
    ]);
  });
});

describe('init planning', () => {
  it('appends only missing lines and keeps the rest', () => {
    expect(appendMissingLines('*.png binary', 'a\n*.png binary\n')).toBe('*.png binary\na\n');
    expect(appendMissingLines('a\n', 'a\n')).toBeNull();
    expect(appendMissingLines(null, 'a\n')).toBe('a\n');
  });
});

const hit = diagnostic({
  file: 'src/a b,c:d.js',
  line: 3,
  column: 5,
  ruleId: 'constraint/x',
  message: '100% bad\nreally',
  notes: ['findings explain x'],
});
const warn = diagnostic({ file: 'b.js', line: 0, severity: 'warning', ruleId: 'registry/duplicate-id', message: 'dup' });

/** The parts of a SARIF log the test reads (two results: one per diagnostic). */
interface SarifResultView {
  ruleId: string;
  ruleIndex: number;
  message: { text: string };
}
interface SarifLogView {
  version: string;
  $schema: string;
  runs: [
    {
      tool: { driver: { name: string; version: string; rules: { id: string }[] } };
      results: [SarifResultView, SarifResultView];
      rules?: unknown[];
    },
  ];
}

describe('SARIF', () => {
  it('has the 2.1.0 shape with constraint ids as rule ids and 1-based regions', () => {
    const log = JSON.parse(formatSarif([hit, warn], '0.0.0')) as SarifLogView;
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('findings-compiler');
    expect(run.tool.driver.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['registry/duplicate-id', 'x']);
    const [b, a] = run.results;
    expect(a).toMatchObject({
      ruleId: 'x',
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'src/a%20b%2Cc%3Ad.js' }, region: { startLine: 3, startColumn: 5 } } }],
    });
    expect(a.message.text).toBe('100% bad\nreally\nfindings explain x');
    expect(run.rules?.[a.ruleIndex]).toBeUndefined();
    expect(run.tool.driver.rules[a.ruleIndex]?.id).toBe('x');
    expect(b).toMatchObject({ level: 'warning', locations: [{ physicalLocation: { region: { startLine: 1, startColumn: 1 } } }] });
  });
});

describe('GitHub workflow commands', () => {
  it('escapes data and properties', () => {
    expect(escapeData('a%b\r\nc')).toBe('a%25b%0D%0Ac');
    expect(escapeProperty('a:b,c%')).toBe('a%3Ab%2Cc%25');
    expect(formatGithub([hit])).toBe(
      '::error file=src/a b%2Cc%3Ad.js,line=3,col=5,title=constraint/x::100%25 bad%0Areally%0Afindings explain x\n',
    );
    expect(formatGithub([warn])).toBe('::warning file=b.js,title=registry/duplicate-id::dup\n');
  });
  it('caps annotations per severity with a final notice', () => {
    const many = Array.from({ length: ANNOTATION_CAP + 7 }, (_, i) =>
      diagnostic({ file: `f${String(i).padStart(3, '0')}.js`, line: 1, ruleId: 'r', message: 'm' }),
    );
    const lines = formatGithub([...many, warn])
      .trimEnd()
      .split('\n');
    expect(lines.filter((l) => l.startsWith('::error ')).length).toBe(ANNOTATION_CAP);
    expect(lines.filter((l) => l.startsWith('::warning ')).length).toBe(1);
    expect(lines.at(-1)).toMatch(/^::notice::7 more annotations omitted/);
  });
});

describe('runGate', () => {
  it("reports each constraint's hits with line and column, and skips files under .agents/", async () => {
    const { runGate } = await import('../../hooks/gate.js');
    const { constraint } = await import('./setup.js');
    const mk = (id: string, pattern: string) => constraint(id, { pattern, globs: ['**/*'] });
    const options = { budgetMs: 250, skip: new Set<string>(), bypass: null, indexFile: 'i.json', indexText: '' };
    const files = [
      { path: 'a.js', text: 'x foo\nbar bar\n', added: undefined },
      { path: 'b.js', text: 'clean\n', added: undefined },
      { path: '.agents/f.md', text: 'foo', added: undefined },
    ];
    const many = await runGate(
      { schema_version: 1, constraints: [mk('1', 'foo'), mk('2', 'bar bar'), mk('3', 'nope'), mk('4', 'ba?r')] },
      files,
      options,
    );
    expect(many.map((d) => `${d.ruleId}@${d.file}:${d.line}:${d.column}`)).toEqual([
      'constraint/1@a.js:1:3',
      'constraint/2@a.js:2:1',
      'constraint/4@a.js:2:1',
      'constraint/4@a.js:2:5',
    ]);
    const single = await runGate({ schema_version: 1, constraints: [mk('4', 'ba?r')] }, files, options);
    expect(single).toHaveLength(2);
  });

  it('refuses patterns that cannot run in linear time: an evaluation error, never a hang', async () => {
    const { runGate } = await import('../../hooks/gate.js');
    const { constraint } = await import('./setup.js');
    const options = { budgetMs: 250, skip: new Set<string>(), bypass: null, indexFile: 'i.json', indexText: '' };
    const files = [{ path: 'a.txt', text: `${'a'.repeat(40)}!\n${'w'.repeat(200_000)}\n`, added: undefined }];
    // Lookaround and backreferences cannot run on the linear engine; `(a|aa)+$` with `i` and
    // `\w+x` on a long line hang or crawl in V8 although safe-regex2 accepts them.
    const index = {
      schema_version: 1 as const,
      constraints: [
        constraint('look', { pattern: '(a|a)*(?=!)x', globs: ['**/*'] }),
        constraint('back', { pattern: '(\\w|a)+\\1?$', globs: ['**/*'] }),
        constraint('alt', { pattern: '(a|aa)+$', globs: ['**/*'] }),
        constraint('poly', { pattern: '\\w+x', globs: ['**/*'] }),
      ],
    };
    index.constraints[2]!.detector.pattern = `(?i)${index.constraints[2]!.detector.pattern}`;
    const out = await runGate(index, files, options);
    expect(
      out
        .filter((d) => /could not be evaluated/.test(d.message))
        .map((d) => d.ruleId)
        .sort(),
    ).toEqual(['constraint/back', 'constraint/look']);
    expect(out.filter((d) => d.ruleId === 'constraint/alt' || d.ruleId === 'constraint/poly')).toEqual([]);
  });
});

describe('constraintNotes', () => {
  it('offers a bypass only where there is something to bypass', async () => {
    const { constraintNotes } = await import('../../hooks/gate.js');
    const { constraint } = await import('./setup.js');
    expect(constraintNotes(constraint('s', { status: 'shadow' }), 'git commit --no-verify').some((n) => n.startsWith('bypass'))).toBe(
      false,
    );
    expect(constraintNotes(constraint('a'), 'git commit --no-verify')).toContain(
      'bypass: git commit --no-verify (skips every check), or FINDINGS_SKIP=a (skips this constraint)',
    );
  });
});
