/** One thread → one finding (src/import/map.ts), Conventional Comments (conventional.ts) and the Markdown reader (markdown.ts). */
import { describe, expect, it } from 'vitest';
import { classSlug, classTag, readLabel } from '../../src/import/conventional.js';
import { hunkLine, importedFindingId, isSkip, mapThread, type MappedThread, type MapOptions } from '../../src/import/map.js';
import { loadMarkdown, readComment, type CommentText } from '../../src/import/markdown.js';
import type { ImportedComment, ImportedThread, Skip } from '../../src/import/thread.js';
import { hashId } from '../../src/review/ids.js';

const SHA = 'bf6bc5d0dea260bdcc62d6416037624952c73d62';

function comment(body: string, extra: Partial<ImportedComment> = {}): ImportedComment {
  return {
    id: '1',
    author: 'alice',
    bot: false,
    body,
    omitted: 0,
    createdAt: '2026-01-06T10:00:00Z',
    updatedAt: '2026-01-06T10:00:00Z',
    url: null,
    ...extra,
  };
}

function thread(body: string, extra: Partial<ImportedThread> = {}): ImportedThread {
  return {
    forge: 'github',
    key: 'github:acme/shop#1',
    pull: 1,
    pullUrl: 'https://github.com/acme/shop/pull/1',
    path: 'src/users.ts',
    line: 5,
    commit: SHA,
    originalLine: 5,
    originalCommit: SHA,
    diffHunk: "@@ -0,0 +1,5 @@\n+export function f() {\n+  console.log('x');",
    side: 'RIGHT',
    comments: [comment(body)],
    resolved: null,
    resolvedBy: null,
    resolvedAt: null,
    exportLine: 1,
    ...extra,
  };
}

const read = await loadMarkdown();
const options: MapOptions = { includeBots: false, since: null };
const mapped = (t: ImportedThread, code: string | null = null): MappedThread => {
  const m = mapThread(t, read, code, options);
  if (isSkip(m)) throw new Error(m.reason);
  return m;
};
const skipped = (t: ImportedThread, opts = options): Skip => {
  const m = mapThread(t, read, null, opts);
  if (!isSkip(m)) throw new Error('not skipped');
  return m;
};

describe('mapThread', () => {
  it('maps a thread to a finding of task PR-<n>: the comment is expected, the commented line actual, replies the evidence', () => {
    const m = mapped(
      thread('Use the `logger` here.', { comments: [comment('Use the `logger` here.'), comment('Done.', { id: '2', author: 'bob' })] }),
    );
    expect(m.task).toBe('PR-1');
    expect(m.findingId).toBe(hashId({ import: 'github:acme/shop#1' }));
    expect(m.findingId).toBe(importedFindingId('github:acme/shop#1'));
    expect(m.body).toEqual({
      file: 'src/users.ts',
      line: 5,
      severity: 'minor',
      criterion: null,
      expected: 'Use the `logger` here.',
      actual: "console.log('x');",
      fix: null,
      evidence: '@alice (2026-01-06T10:00:00Z): Use the `logger` here.\n\n@bob (2026-01-06T10:00:00Z): Done.',
      class: null,
    });
    expect(m.source).toMatchObject({ forge: 'github', thread: 'github:acme/shop#1', pull: 1, comments: ['1', '2'], commit: SHA, line: 5 });
  });

  it('takes the line from `line`, else `original_line`, and the code from git when the hunk has none', () => {
    const m = mapped(thread('Rename this.', { line: null, originalLine: 9, diffHunk: null }), 'const a = 1;');
    expect([m.body.line, m.body.actual]).toEqual([9, 'const a = 1;']);
    expect(mapped(thread('Rename this.', { diffHunk: null })).body.actual).toBe(
      'the commented code (src/users.ts:5) is not in the export or the history',
    );
  });

  it('reads severity from Conventional Comments labels and decorations, minor by default', () => {
    const severity = (body: string): string => mapped(thread(body)).body.severity;
    expect(severity('nit: spacing')).toBe('nit');
    expect(severity('suggestion: rename it')).toBe('minor');
    expect(severity('issue: this leaks')).toBe('major');
    expect(severity('**issue (blocking):** this leaks')).toBe('blocker');
    expect(severity('blocking: do not merge this')).toBe('blocker');
    expect(severity('issue (non-blocking): later is fine')).toBe('minor');
    expect(severity('question: why a loop?')).toBe('nit');
    expect(severity('this leaks')).toBe('minor');
    expect(skipped(thread('praise: lovely')).reason).toBe('a "praise:" comment, not a defect');
  });

  it('takes an explicit class from a [class: …] tag or a decoration, and drops both from the text', () => {
    let m = mapped(thread('issue (security, blocking): the token is logged'));
    expect([m.explicitClass, m.body.expected]).toEqual(['security', 'the token is logged']);
    m = mapped(thread('[class: N+1 Query] this queries in a loop'));
    expect([m.explicitClass, m.body.expected]).toEqual(['n-1-query', 'this queries in a loop']);
  });

  it('reads a suggestion block: the prose is expected; a suggestion alone becomes the expected text', () => {
    const fence = "```suggestion\n  logger.debug('x');\n```";
    let m = mapped(thread(`suggestion: use the logger.\n\n${fence}`));
    expect([m.body.expected, m.suggestion]).toEqual(['use the logger.', "  logger.debug('x');"]);
    m = mapped(thread(fence));
    expect(m.body.expected).toBe("suggested change: logger.debug('x');");
  });

  it('leaves out bots (unless asked), threads before --since, approvals and empty comments, with reasons', () => {
    const bot = thread('Coverage dropped.', { comments: [comment('Coverage dropped.', { bot: true, author: 'ci[bot]' })] });
    expect(skipped(bot).reason).toBe('written by a bot (ci[bot]); --include-bots keeps it');
    expect(isSkip(mapThread(bot, read, null, { includeBots: true, since: null }))).toBe(false);
    expect(skipped(thread('Rename.'), { includeBots: false, since: '2026-02-01T00:00:00Z' }).reason).toBe(
      'started 2026-01-06T10:00:00Z, before --since',
    );
    expect(skipped(thread('LGTM')).reason).toContain('asks for nothing');
    expect(skipped(thread('> quoted only')).reason).toContain('asks for nothing');
    expect(skipped(thread('TODO: later')).reason).toContain('asks for nothing');
  });

  it('refuses paths outside the repository or with control characters, per thread', () => {
    for (const [p, why] of [
      ['../etc/passwd', 'contains a ".." segment'],
      ['/etc/passwd', 'is absolute'],
      ['C:\\x.ts', 'contains a backslash'],
      ['src/a\nb.ts', 'contains a control character (U+000A)'],
    ] as const)
      expect(skipped(thread('Rename.', { path: p })).reason).toContain(why);
    expect(skipped(thread('Rename.', { path: null })).reason).toBe('names no file ("path")');
  });

  it('cuts long texts within the ledger limits with …[N chars omitted] and turns control characters into spaces', () => {
    const long = `Please rename ${'x'.repeat(5000)}`;
    const m = mapped(thread(long));
    expect([...m.body.expected].length).toBe(300);
    expect(m.body.expected).toMatch(/…\[\d+ chars omitted\]$/);
    expect([...m.body.evidence!].length).toBe(2000);
    expect(mapped(thread('Bad\u0000value\u001b[31m here')).body.expected).toBe('Bad value [31m here');
  });
});

describe('Conventional Comments and class tags', () => {
  it('reads labels, decorations and tags', () => {
    expect(readLabel('issue (ux, non-blocking): small')).toEqual({
      label: 'issue',
      severity: 'minor',
      decorationClass: 'ux',
      subject: 'small',
    });
    expect(readLabel('Note: x').label).toBe('note');
    expect(readLabel('Note that: x').label).toBeNull();
    expect(readLabel('Unknown: x')).toMatchObject({ label: null, severity: 'minor', subject: 'Unknown: x' });
    expect(classTag('see [class:  Null Deref ] here')).toBe('null-deref');
    expect(classSlug('---')).toBeNull();
  });
});

describe('the Markdown reader', () => {
  const parse = (body: string): CommentText => read(body);

  it('reads suggestion fences, quotes, code blocks, code spans, and drops HTML', () => {
    const t = parse(
      '> you wrote this\n\nUse **`logger`** here <!-- bot -->.\n\n```ts\nconst a = 1;\n```\n\n```suggestion\nlogger.info(x);\n```\n',
    );
    expect(t).toEqual({
      prose: 'Use `logger` here .',
      suggestions: ['logger.info(x);'],
      quotes: ['you wrote this'],
      code: ['const a = 1;'],
    });
  });

  it('skips the parser only for bodies the parser reads as their own text', async () => {
    const { unified } = await import('unified');
    const { default: remarkParse } = await import('remark-parse');
    const processor = unified().use(remarkParse);
    // `*x*` after the body makes the reader parse it; the parser's answer for the body is then known.
    const viaParser = (b: string): CommentText => readComment(`${b}\n\n*x*`, (s) => processor.parse(s) as never);
    for (const body of [
      'Rename this variable, please.',
      'Line one  \nline two',
      "Don't do this (it's slow) - use a map; 50% faster?",
      'Use `logger.debug` instead of `console.log` here.',
      'Two\n\nparagraphs, `a*b` in a span',
    ]) {
      expect(parse(body).prose).toBe(viaParser(body).prose.replace(/ x$/, ''));
    }
  });

  it('reads the commented line from a diff hunk', () => {
    expect(hunkLine('@@ -1 +1,2 @@\n context\n+  added();')).toBe('added();');
    expect(hunkLine('@@ -1 +1 @@')).toBeNull();
    expect(hunkLine(null)).toBeNull();
  });
});
