/** Pure helpers of pull: source and ref rules, ls-remote parsing, sources.json, artifact tier edit, fixture selection. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isUrl, pickRemoteRef, refProblem, sourceProblem } from '../../src/git/pull.js';
import { planArtifacts, setArtifactTier } from '../../src/reuse/artifacts.js';
import { copiedFileDigest, normalizeArtifactText } from '../../src/reuse/digest.js';
import { carryLifecycle } from '../../compiler/promote.js';
import { findFence } from '../../src/frontmatter.js';
import { parseSourcesFile, recordedUrl, serializeSourcesFile } from '../../src/reuse/sources-file.js';
import { recordLine } from '../../src/reuse/pull.js';
import { FIXTURES } from '../helpers/repo.js';

describe('source and ref rules', () => {
  it.each([
    ['../repo-a', null],
    ['https://example.com/org/r.git', null],
    ['git@example.com:org/r.git', null],
    ['file:///srv/r.git', null],
    ['-uhack', 'starts with "-"'],
    ['ext::sh -c x', 'remote helper'],
    ['fd::3', 'remote helper'],
    ['ftp://x/r', 'unsupported transport'],
    ['https://u:pw@x/r', 'password'],
    ['', 'is empty'],
  ])('sourceProblem(%j)', (source, expected) => {
    const p = sourceProblem(source);
    if (expected === null) expect(p).toBeNull();
    else expect(p).toContain(expected);
  });
  it('classifies like git: scp-like before any slash is a URL', () => {
    expect(isUrl('host:path/x')).toBe(true);
    expect(isUrl('./dir:x')).toBe(false);
    expect(isUrl('/abs/path')).toBe(false);
  });
  it.each([
    ['HEAD', null],
    ['main', null],
    ['refs/tags/v1.0', null],
    ['0123456789abcdef0123456789abcdef01234567', null],
    ['--upload-pack=x', 'starts with "-"'],
    ['a b', 'character'],
    ['a:b', 'character'],
    ['a..b', '".."'],
    ['x.lock', 'not a valid'],
  ])('refProblem(%j)', (ref, expected) => {
    const p = refProblem(ref);
    if (expected === null) expect(p).toBeNull();
    else expect(p).toContain(expected);
  });
  it('picks the ref git would fetch from ls-remote output, peeling tags', () => {
    const out = [
      `${'1'.repeat(40)}\tHEAD`,
      `${'2'.repeat(40)}\trefs/heads/main`,
      `${'3'.repeat(40)}\trefs/remotes/origin/main`,
      `${'4'.repeat(40)}\trefs/tags/v1`,
      `${'5'.repeat(40)}\trefs/tags/v1^{}`,
      '',
    ].join('\n');
    expect(pickRemoteRef(out, 'HEAD')).toBe('1'.repeat(40));
    expect(pickRemoteRef(out, 'main')).toBe('2'.repeat(40));
    expect(pickRemoteRef(out, 'v1')).toBe('5'.repeat(40));
    expect(pickRemoteRef(out, 'nope')).toBeNull();
  });
});

describe('sources.json', () => {
  const record = (url: string) => ({
    url,
    ref: 'HEAD',
    commit: 'a'.repeat(40),
    tier: 'pulled' as const,
    entries: [
      { id: 'f-2', digest: '0'.repeat(16) },
      { id: 'f-1', digest: '1'.repeat(16) },
    ],
    files: [
      { path: 'b', digest: '2'.repeat(16) },
      { path: 'a', digest: '3'.repeat(16) },
    ],
  });
  it('serializes sorted and stable, and parses back', () => {
    const text = serializeSourcesFile({ version: 1, sources: [record('z'), record('../a')] });
    expect(serializeSourcesFile({ version: 1, sources: [record('../a'), record('z')] })).toBe(text);
    const parsed = parseSourcesFile(text);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.value.sources.map((s) => s.url)).toEqual(['../a', 'z']);
      expect(parsed.value.sources[0]!.entries.map((e) => e.id)).toEqual(['f-1', 'f-2']);
    }
    expect(recordLine(text, 'z')).toBeGreaterThan(recordLine(text, '../a'));
  });
  it('refuses bad JSON, schema violations and duplicate urls, naming the problem', () => {
    const bad = [
      parseSourcesFile('{'),
      parseSourcesFile('{"version":1,"sources":[{"url":"x"}]}'),
      parseSourcesFile(
        serializeSourcesFile({ version: 1, sources: [record('x')] }).replace('"sources": [', `"sources": [${JSON.stringify(record('x'))},`),
      ),
    ];
    expect(bad.map((b) => (b.ok ? 'ok' : b.diagnostics[0]!.ruleId))).toEqual([
      'sources/invalid-json',
      'sources/schema',
      'sources/duplicate-url',
    ]);
  });
  it('records local paths relative to the root, URLs verbatim', () => {
    expect(recordedUrl({ kind: 'local', location: '/srv/x/repo-a' }, '/srv/x/repo-b')).toBe('../repo-a');
    expect(recordedUrl({ kind: 'local', location: '/srv/x/repo-b/vendor/a' }, '/srv/x/repo-b')).toBe('./vendor/a');
    expect(recordedUrl({ kind: 'url', location: 'https://e.com/r.git' }, '/srv')).toBe('https://e.com/r.git');
  });
});

describe('artifact copies', () => {
  const artifact = readFileSync(path.join(FIXTURES, 'reuse/repo-a/.agents/findings/f-a-002.md'), 'utf8');
  it('sets tier with a one-line edit, or adds it before the closing fence', () => {
    const out = setArtifactTier(artifact, 'pulled', 'x.md')!;
    expect(out.split('\n').filter((l, i) => l !== artifact.split('\n')[i])).toEqual(['tier: pulled']);
    const without = artifact.replace('tier: local\n', '');
    expect(setArtifactTier(without, 'seed', 'x.md')).toContain('confidence: high\nttl_days: 90\ncompiler:');
    expect(setArtifactTier(without, 'seed', 'x.md')).toMatch(/tier: seed\n---\n/);
    expect(setArtifactTier(artifact.replace(/\r?\n/g, '\r\n'), 'pulled', 'x.md')).toContain('tier: pulled\r\n');
  });
  it('refuses a front matter it cannot edit safely', () => {
    expect(setArtifactTier('no front matter', 'pulled', 'x.md')).toBeNull();
    expect(setArtifactTier('---js\nmodule.exports = {}\n---\n', 'pulled', 'x.md')).toBeNull();
  });
  it('copies only mechanical artifacts and fixture refs under the fixtures folder that are regular files', () => {
    const text = artifact.replace(
      'negative_control_refs: [.agents/constraints/fixtures/f-a-002/negative.ts]',
      'negative_control_refs: [.agents/constraints/fixtures/f-a-002/negative.ts, ' +
        '../outside.ts, src/a.ts, .agents/constraints/fixtures/f-a-002/link.ts, /etc/passwd]',
    );
    const blob = (p: string, mode = '100644') => [p, { mode, sha: p, path: p }] as const;
    const tree = new Map([
      blob('.agents/findings/f-a-002.md'),
      blob('.agents/constraints/fixtures/f-a-002/positive.ts'),
      blob('.agents/constraints/fixtures/f-a-002/negative.ts'),
      blob('.agents/constraints/fixtures/f-a-002/link.ts', '120000'),
      blob('src/a.ts'),
    ]);
    const advisory = artifact.replace('id: f-a-002', 'id: f-a-001').replace('detectability: mechanical', 'detectability: advisory');
    const plan = planArtifacts(
      { tree, written: new Map([['f-a-002', 'f-a-002']]), tier: 'pulled', sourceLabel: '../a' },
      new Map([
        ['.agents/findings/f-a-002.md', Buffer.from(text)],
        ['.agents/findings/f-a-001.md', Buffer.from(advisory)],
      ]),
    );
    expect(plan.files.map((f) => f.path)).toEqual(['.agents/findings/f-a-002.md']);
    expect(plan.fixtures.map((f) => f.path)).toEqual([
      '.agents/constraints/fixtures/f-a-002/positive.ts',
      '.agents/constraints/fixtures/f-a-002/negative.ts',
    ]);
    expect(plan.diagnostics.map((d) => d.ruleId)).toEqual([
      'pull/fixture-path',
      'pull/fixture-path',
      'pull/fixture-missing',
      'pull/fixture-path',
    ]);
  });
});

describe('copied-file digests ignore what compile and pull manage', () => {
  const ARTIFACT = '.agents/findings/f-a-002.md';
  const text = readFileSync(path.join(FIXTURES, 'reuse/repo-a/.agents/findings/f-a-002.md'), 'utf8').replace(
    '## Summary',
    '- Status: active\n\n## Summary',
  );
  const pulled = setArtifactTier(text, 'pulled', ARTIFACT)!;
  const digest = (t: string, p = ARTIFACT): string => copiedFileDigest(p, Buffer.from(t, 'utf8'));
  const carried = (t: string, status: 'retired' | 'superseded', by: string | null): string => {
    const fence = findFence(t, ARTIFACT);
    if (!fence.ok) throw new Error('no fence');
    return carryLifecycle(t, fence.fence.closeLine, status, by)!;
  };

  it.each([
    ['compile retires it (status line and body - Status:)', carried(pulled, 'retired', null)],
    ['compile supersedes it (inserts superseded_by:)', carried(pulled, 'superseded', 'f-a-009')],
    ['the tier differs', pulled.replace('\ntier: pulled\n', '\ntier: seed\n')],
  ])('same digest when %s', (_name, edited) => {
    expect(edited).not.toBe(pulled);
    expect(digest(edited)).toBe(digest(pulled));
  });
  it.each([
    ['the detector changes', pulled.replace('console\\\\.log', 'console\\\\.debug')],
    ['the body changes', pulled.replace('## Summary', '## Summary (B notes)')],
    ['a second - Status: line changes', `${carried(pulled, 'retired', null)}- Status: mine\n`],
    ['a nested status: key changes', pulled.replace('    kind: regex\n', '    kind: regex\n    status: x\n')],
  ])('another digest when %s', (_name, edited) => {
    expect(edited).not.toBe(pulled);
    expect(digest(edited)).not.toBe(digest(pulled));
  });
  it('same digest for a CRLF artifact that compile retired', () => {
    const crlf = pulled.replaceAll('\n', '\r\n');
    expect(digest(carried(crlf, 'retired', null))).toBe(digest(crlf));
  });
  it('fixtures are digested byte for byte; text without front matter is left as it is', () => {
    const fixture = 'status: a\n';
    expect(digest(fixture, '.agents/constraints/fixtures/f-a-002/x.md')).not.toBe(
      digest('status: b\n', '.agents/constraints/fixtures/f-a-002/x.md'),
    );
    expect(normalizeArtifactText('no front matter\nstatus: x\n')).toBe('no front matter\nstatus: x\n');
  });
});
