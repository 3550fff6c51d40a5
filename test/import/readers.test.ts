/**
 * One reader per source shape (src/import/github-rest.ts, github-graphql.ts, gitlab.ts) on exports
 * shaped like the real APIs' answers (test/fixtures/import/README.md): each gives the same threads.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphqlCollector } from '../../src/import/github-graphql.js';
import { RestCollector } from '../../src/import/github-rest.js';
import { GitlabCollector } from '../../src/import/gitlab.js';
import { readExportObjects } from '../../src/import/json-stream.js';
import { mergeThreads } from '../../src/import/run.js';
import type { ImportedThread } from '../../src/import/thread.js';
import { FIXTURES } from '../helpers/repo.js';
import { SHAS } from './history.js';

const DIR = path.join(FIXTURES, 'import');

async function objects(rel: string): Promise<{ value: Record<string, unknown>; line: number }[]> {
  const out: { value: Record<string, unknown>; line: number }[] = [];
  for await (const i of readExportObjects([readFileSync(path.join(DIR, rel))]))
    if (i.kind === 'object') out.push({ value: i.value as Record<string, unknown>, line: i.line });
  return out;
}

async function rest(rel: string): Promise<ImportedThread[]> {
  const c = new RestCollector();
  for (const o of await objects(rel)) c.add(o.value, o.line);
  return c.threads();
}

/** What every reader must agree on (export lines differ by file). */
const essence = (t: ImportedThread) => ({
  key: t.key,
  pull: t.pull,
  path: t.path,
  line: t.line,
  commit: t.commit,
  comments: t.comments.map((c) => [c.id, c.author, c.bot, c.createdAt]),
});

describe('GitHub REST review comments', () => {
  it('reads every gh --paginate variant into the same threads, replies folded into their thread', async () => {
    const variants = await Promise.all(
      ['one-array.json', 'paginated.json', 'slurp.json', 'lines.jsonl'].map((v) => rest(`github-rest/${v}`)),
    );
    const first = variants[0]!.map(essence);
    expect(first.map((t) => [t.key, t.comments.map((c) => c[0])])).toEqual([
      ['github:acme/shop#1001', ['1001', '1002']],
      ['github:acme/shop#1003', ['1003']],
      ['github:acme/shop#2001', ['2001']],
      ['github:acme/shop#2002', ['2002']],
      ['github:acme/shop#2003', ['2003']],
      ['github:acme/shop#3001', ['3001']],
      ['github:acme/shop#3002', ['3002']],
    ]);
    for (const v of variants) expect(v.map(essence)).toEqual(first);
    const t = variants[0]![0]!;
    expect(t).toMatchObject({ pull: 1, pullUrl: 'https://github.com/acme/shop/pull/1', path: 'src/users.ts', line: 5, commit: SHAS[1] });
    expect(t.resolved).toBeNull(); // REST never says
    expect(variants[0]!.find((x) => x.key.endsWith('#2003'))!.comments[0]!.bot).toBe(true);
  });

  it('skips a reply whose thread is not in the export, and a comment with no pull request, each with its reason', () => {
    const c = new RestCollector();
    c.add(
      {
        id: 7,
        in_reply_to_id: 6,
        body: 'x',
        created_at: '2026-01-01T00:00:00Z',
        html_url: 'https://github.com/a/b/pull/1#r7',
        diff_hunk: '',
      },
      3,
    );
    c.add({ id: 8, body: 'x', created_at: '2026-01-01T00:00:00Z', html_url: 'https://example.com/nowhere', diff_hunk: '' }, 4);
    expect(c.threads()).toEqual([]);
    expect(c.skips.map((s) => [s.line, s.reason])).toEqual([
      [4, 'names no pull request ("html_url" or "pull_request_url")'],
      [3, 'a reply to comment 6, which is not in the export'],
    ]);
  });
});

describe('GitHub GraphQL review threads', () => {
  it('reads the paginated pages into the same threads as REST, with who resolved each', async () => {
    const g = new GraphqlCollector();
    for (const o of await objects('github-graphql/threads.json')) g.add(o.value, o.line);
    const threads = mergeThreads(g.threads);
    expect(threads.map(essence)).toEqual((await rest('github-rest/one-array.json')).map(essence));
    expect(threads.map((t) => [t.key.slice(-4), t.resolved, t.resolvedBy])).toEqual([
      ['1001', true, 'carol'],
      ['1003', false, null],
      ['2001', false, null],
      ['2002', true, 'alice'],
      ['2003', false, null],
      ['3001', false, null],
      ['3002', true, 'bob'],
    ]);
  });

  it('stops at a GraphQL error answer and notes a page cut short', () => {
    const g = new GraphqlCollector();
    g.add({ errors: [{ message: 'Bad credentials' }] }, 1);
    g.add({ number: 4, url: 'https://github.com/a/b/pull/4', reviewThreads: { pageInfo: { hasNextPage: true }, nodes: [] } }, 2);
    expect(g.errors).toEqual([{ line: 1, message: 'the GraphQL answer is an error, not data: Bad credentials' }]);
    expect(g.skips[0]!.reason).toContain('more review threads than one page holds');
  });
});

describe('GitLab merge request discussions', () => {
  it('reads DiffNote discussions into threads (MR iid, head_sha, new_line, resolution) and skips general and system notes', async () => {
    const g = new GitlabCollector('https://gitlab.com/acme/shop');
    for (const o of await objects('gitlab/discussions.json')) g.add(o.value, o.line);
    expect(g.threads.map((t) => [t.pull, t.path, t.line, t.commit === SHAS[t.pull], t.comments.length, t.resolved, t.resolvedBy])).toEqual([
      [1, 'src/users.ts', 5, true, 2, true, 'carol'],
      [1, 'src/users.ts', 3, true, 1, false, null],
      [2, 'src/orders.ts', 8, true, 1, false, null],
      [2, 'src/orders.ts', 6, true, 1, true, 'alice'],
      [2, 'src/orders.ts', 1, true, 1, false, null],
      [3, 'src/app.ts', 5, true, 1, false, null],
      [3, 'src/billing.ts', 4, true, 1, true, 'bob'],
    ]);
    expect(g.threads[0]!.comments[0]!.url).toBe('https://gitlab.com/acme/shop/-/merge_requests/1#note_11001');
    expect(g.threads[0]!.originalCommit).toBe(SHAS[0]);
    expect(g.skips.map((s) => s.reason)).toEqual([
      'not a line comment (its first note is not a DiffNote with a position)',
      'a discussion with no comment (system notes only)',
    ]);
  });
});
