/**
 * `findings import` in real repositories (docs/import.md), in-process: exports shaped like the
 * APIs' answers over a history whose commits they name (test/import/history.ts) → the review
 * ledger, idempotently → `recur` makes one candidate from three pull requests → promoted and made
 * mechanical → `constraint measure` counts the review comments it would have prevented.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOk, makeMechanical } from '../helpers/findings.js';
import { FIXTURES, makeRepo, runFindings, tempDir, type TestRepo } from '../helpers/repo.js';
import { importHistory, SHAS } from './history.js';

const ENV = { FINDINGS_NOW: '2026-03-01T10:00:00Z' };
const DIR = path.join(FIXTURES, 'import');
const REST = ['one-array.json', 'paginated.json', 'slurp.json', 'lines.jsonl'].map((f) => path.join(DIR, 'github-rest', f));
const GRAPHQL = path.join(DIR, 'github-graphql/threads.json');
const GITLAB = path.join(DIR, 'gitlab/discussions.json');

const run = (repo: TestRepo, args: string[], stdin?: string) =>
  runFindings(args, { cwd: repo.root, env: ENV, ...(stdin === undefined ? {} : { stdin }) });
const ok = (repo: TestRepo, args: string[]): Promise<string> => expectOk(repo, args, ENV);

/** Every file under .agents/, with its bytes. */
function agentsFiles(repo: TestRepo): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(repo.root, rel), { withFileTypes: true })) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else out[child] = readFileSync(path.join(repo.root, child), 'utf8');
    }
  };
  walk('.agents');
  return out;
}

const events = (repo: TestRepo, task: string): { type: string; finding_id: string; finding?: { expected: string } }[] =>
  repo
    .read(`.agents/reviews/${task}.jsonl`)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as never);

describe('import a review history, recur, and count the comments a constraint prevents', () => {
  let repo: TestRepo;
  beforeAll(() => {
    const h = importHistory();
    repo = h.repo;
    // The fixtures name these commits: the history must be the one they were made from.
    expect(h.shas).toEqual(SHAS);
  });

  it('imports the REST export into one task per pull request, and any gh --paginate variant again writes nothing', async () => {
    const out = await ok(repo, ['import', 'github', REST[1]!]);
    expect(out).toContain('PR-1: 1 filed, 0 updated, 0 resolved');
    expect(out).toContain('PR-2: 2 filed, 0 updated, 0 resolved');
    expect(out).toContain('PR-3: 2 filed, 0 updated, 0 resolved');
    const r = await run(repo, ['import', 'github', REST[0]!]);
    expect(r.stderr).toContain('skipped github:acme/shop#2003: written by a bot (coverage-bot[bot]); --include-bots keeps it');
    expect(r.stderr).toContain('skipped github:acme/shop#1003: a "praise:" comment, not a defect');
    expect(JSON.parse(repo.read('.agents/tasks/PR-2.json'))).toEqual({
      id: 'PR-2',
      source: 'https://github.com/acme/shop/pull/2',
      criteria: [],
    });
    const [first] = events(repo, 'PR-1') as unknown as {
      actor: string;
      at: string;
      finding: Record<string, unknown>;
      source: Record<string, unknown>;
    }[];
    expect(first!.finding).toMatchObject({
      file: 'src/users.ts',
      line: 5,
      severity: 'minor',
      expected: "Please don't leave `console.log` in committed code; use the `logger` from `src/log.ts` instead.",
      actual: "console.log('loaded users', users);",
      class: 'console-log-logger',
    });
    expect(first!.source).toMatchObject({
      url: 'https://github.com/acme/shop/pull/1#discussion_r1001',
      commit: SHAS[1],
      author: 'alice',
      comments: ['1001', '1002'],
      created_at: '2026-01-06T10:00:00Z',
      updated_at: '2026-01-06T11:00:00Z',
    });
    expect([first!.actor, first!.at]).toEqual(['alice', '2026-01-06T10:00:00Z']);
    // The suggestion of comment 3001 was applied by the last commit: the thread is addressed by it.
    expect(events(repo, 'PR-3').filter((e) => e.type === 'addressed')).toMatchObject([
      { commit: SHAS[4], note: "the reviewer's suggestion was applied in this commit" },
    ]);

    const before = agentsFiles(repo);
    for (const file of REST) {
      const again = await ok(repo, ['import', 'github', file]);
      expect(again).toContain('0 filed, 0 updated, 0 resolved, 5 unchanged');
    }
    const fromStdin = await run(repo, ['import', 'github', '-'], readFileSync(REST[3]!, 'utf8'));
    expect(fromStdin.code).toBe(0);
    expect(agentsFiles(repo)).toEqual(before);
  });

  it('records who resolved each thread from the GraphQL export, once', async () => {
    const out = await ok(repo, ['import', 'github', GRAPHQL]);
    expect(out).toContain('0 filed, 0 updated, 3 resolved, 2 unchanged');
    const resolved = events(repo, 'PR-1').filter((e) => e.type === 'resolved');
    expect(resolved).toMatchObject([{ actor: 'carol', commit: null }]);
    const show = JSON.parse((await ok(repo, ['review', 'show', 'PR-2', '--all', '--json'])) as string) as {
      status: string;
      source: { url: string };
      forge_resolution?: { actor: string };
    }[];
    expect(show.map((f) => [f.status, f.source.url, f.forge_resolution?.actor ?? null])).toEqual([
      ['open', 'https://github.com/acme/shop/pull/2#discussion_r2001', null],
      ['resolved', 'https://github.com/acme/shop/pull/2#discussion_r2002', 'alice'],
    ]);
    const before = agentsFiles(repo);
    expect(await ok(repo, ['import', 'github', GRAPHQL])).toContain('0 filed, 0 updated, 0 resolved, 5 unchanged');
    expect(agentsFiles(repo)).toEqual(before);
    // The push gate and submit see a resolved imported thread as closed.
    expect(repo.read('.agents/reviews/PR-1.md')).toContain('1 finding: 0 open, 0 addressed, 0 verified, 0 waived, 1 resolved');
  });

  it('records an edited comment as an update of the same finding, never a duplicate', async () => {
    const edited = readFileSync(REST[3]!, 'utf8')
      .split('\n')
      .map((l) =>
        l.includes('"id":2001,')
          ? l
              .replace('left in again.', 'left in again, third time.')
              .replace('"updated_at":"2026-01-07T10:00:00Z"', '"updated_at":"2026-01-09T08:00:00Z"')
          : l,
      )
      .join('\n');
    const file = path.join(tempDir(), 'edited.jsonl');
    writeFileSync(file, edited);
    expect(await ok(repo, ['import', 'github', file])).toContain('PR-2: 0 filed, 1 updated, 0 resolved');
    const e = events(repo, 'PR-2');
    expect(e.filter((x) => x.type === 'filed')).toHaveLength(2);
    expect(e.filter((x) => x.type === 'updated').map((x) => x.finding!.expected)).toEqual([
      '`console.log` left in again, third time. Our logger (`logger.debug`) keeps this out of production output.',
    ]);
    expect(await ok(repo, ['import', 'github', file])).toContain('0 filed, 0 updated, 0 resolved, 5 unchanged');
    // An older export changes nothing back.
    expect(await ok(repo, ['import', 'github', REST[0]!])).toContain('1 older than the ledger');
    expect(events(repo, 'PR-2').filter((x) => x.type === 'updated')).toHaveLength(1);
    await ok(repo, ['validate']);
  });

  it('recur makes one candidate from the three pull requests, and explain lists the three comment URLs', async () => {
    expect(await ok(repo, ['recur'])).toContain('console-log-logger: 3 objectives (PR-1, PR-2, PR-3)');
    expect(await ok(repo, ['recur'])).toContain('1 advisory candidate(s)');
    const chain = JSON.parse(await ok(repo, ['explain', 'console-log-logger', '--json'])) as {
      review_findings: { task: string; source: { url: string } }[];
    };
    expect(chain.review_findings.map((r) => [r.task, r.source.url])).toEqual([
      ['PR-1', 'https://github.com/acme/shop/pull/1#discussion_r1001'],
      ['PR-2', 'https://github.com/acme/shop/pull/2#discussion_r2001'],
      ['PR-3', 'https://github.com/acme/shop/pull/3#discussion_r3001'],
    ]);
    expect(await ok(repo, ['explain', 'console-log-logger'])).toContain(
      'imported from https://github.com/acme/shop/pull/2#discussion_r2001 (by bob, 2026-01-07T10:00:00Z)',
    );
  });

  it('promoted and made mechanical, measure reports the comments the constraint would have prevented', async () => {
    await ok(repo, ['recur', '--promote', 'console-log-logger']);
    const entry = JSON.parse(repo.read('.agents/findings/registry.jsonl')) as { id: string };
    await ok(repo, ['compile']);
    makeMechanical(repo, entry.id, path.join(FIXTURES, 'lifecycle/e2e'));
    await ok(repo, ['compile']);
    repo.commitAll('findings: the console.log constraint');
    expect(await ok(repo, ['constraint', 'measure'])).toContain(entry.id);
    const m = JSON.parse(repo.read(`.agents/constraints/measurements/${entry.id}.json`)) as {
      hits: { id: string }[];
      comments_prevented: { count: number; comments: { task: string; url: string; hit: string }[] };
    };
    // The three console.log comments, and the N+1 comment two lines above the console.log of PR 2:
    // the rule counts every imported comment within 3 lines of a hit, whatever it was about (docs/import.md).
    expect(m.comments_prevented.count).toBe(4);
    expect(m.comments_prevented.comments.map((c) => [c.task, c.url, c.hit])).toEqual([
      ['PR-1', 'https://github.com/acme/shop/pull/1#discussion_r1001', `${SHAS[1]!.slice(0, 8)}:src/users.ts:5`],
      ['PR-2', 'https://github.com/acme/shop/pull/2#discussion_r2001', `${SHAS[2]!.slice(0, 8)}:src/orders.ts:8`],
      ['PR-2', 'https://github.com/acme/shop/pull/2#discussion_r2002', `${SHAS[2]!.slice(0, 8)}:src/orders.ts:8`],
      ['PR-3', 'https://github.com/acme/shop/pull/3#discussion_r3001', `${SHAS[3]!.slice(0, 8)}:src/app.ts:5`],
    ]);
    await ok(repo, ['validate']);
    const text = await ok(repo, ['explain', entry.id]);
    expect(text).toContain('comments prevented: 4 imported review comment(s) it would have caught at commit time');
    expect(text).toContain('PR-2 https://github.com/acme/shop/pull/2#discussion_r2001');
    const md = await run(repo, ['check', '--all', '--format', 'markdown']);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('#### Review comments these constraints would have prevented');
    expect(md.stdout).toContain(`| \`${entry.id}\` `);
    expect(md.stdout).toContain('| 4 | [PR-1](https://github.com/acme/shop/pull/1#discussion_r1001), [PR-2]');
  });
});

describe('import: other forges, options and hostile input', () => {
  it('imports GitLab discussions into MR-<iid> tasks with comment URLs from --project-url', async () => {
    const repo = makeRepo();
    const out = await ok(repo, ['import', 'gitlab', '--project-url', 'https://gitlab.com/acme/shop', GITLAB]);
    expect(out).toContain('MR-1: 1 filed, 0 updated, 1 resolved');
    expect(JSON.parse(repo.read('.agents/tasks/MR-3.json'))).toEqual({
      id: 'MR-3',
      source: 'https://gitlab.com/acme/shop/-/merge_requests/3',
      criteria: [],
    });
    expect(repo.read('.agents/reviews/MR-1.jsonl')).toContain('"url":"https://gitlab.com/acme/shop/-/merge_requests/1#note_11001"');
    // Commits not in this repository: the commented line cannot be read, and says so.
    expect(repo.read('.agents/reviews/MR-3.jsonl')).toContain(
      '"actual":"the commented code (src/app.ts:5) is not in the export or the history"',
    );
    const wrong = await run(repo, ['import', 'github', GITLAB]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr + wrong.stdout).toContain('holds no GitHub review comments or review threads; nothing imported');
  });

  it('keeps bots with --include-bots and limits the range with --since', async () => {
    const repo = makeRepo();
    expect(await ok(repo, ['import', 'github', '--since', '2026-01-08', REST[0]!])).toContain(
      '0 updated, 0 resolved, 0 unchanged, 5 skipped',
    );
    expect(Object.keys(agentsFiles(repo)).filter((f) => f.endsWith('.jsonl'))).toEqual(['.agents/reviews/PR-3.jsonl']);
    expect(await ok(repo, ['import', 'github', '--include-bots', REST[0]!])).toContain('PR-2: 3 filed');
    expect((await run(repo, ['import', 'github', '--since', 'yesterday', REST[0]!])).code).toBe(2);
  });

  it('in a project below the top level, keeps the threads on its own files, relative to it', async () => {
    const repo = makeRepo();
    repo.write('pkg/.agents/config.json', '{}\n'); // .agents/ marks the project root (a monorepo's package)
    repo.commitAll('package');
    const base = JSON.parse(readFileSync(REST[0]!, 'utf8'))[0] as Record<string, unknown>;
    const comment = (id: number, p: string): string =>
      JSON.stringify({ ...base, id, path: p, html_url: `https://github.com/acme/shop/pull/9#discussion_r${id}` });
    const file = path.join(tempDir(), 'monorepo.jsonl');
    writeFileSync(file, `${comment(1, 'pkg/src/a.ts')}\n${comment(2, 'src/b.ts')}\n`);
    const r = await runFindings(['import', 'github', file, '--json'], { cwd: path.join(repo.root, 'pkg'), env: ENV });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { skipped: { reason: string }[] }).skipped.map((s) => s.reason)).toEqual([
      'its path "src/b.ts" is outside this project (pkg/)',
    ]);
    expect(repo.read('pkg/.agents/reviews/PR-9.jsonl')).toContain('"file":"src/a.ts"');
  });

  it('prints the gh api commands that make the export', async () => {
    const repo = makeRepo();
    const r = await run(repo, ['import', 'github', '--print-commands', 'acme/shop']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("gh api --paginate 'repos/acme/shop/pulls/comments?per_page=100' > review-comments.json");
    expect(r.stdout).toContain("gh api graphql --paginate -F owner='acme' -F repo='shop' -f query='");
    expect(r.stdout).toContain('isResolved resolvedBy { login }');
    expect((await run(repo, ['import', 'github', '--print-commands', 'acme/shop;rm -rf /'])).code).toBe(2);
    expect((await run(repo, ['import', 'gitlab', '--print-commands', 'acme/shop'])).stdout).toContain(
      'projects/acme%2Fshop/merge_requests?state=all&per_page=100',
    );
  });

  it('skips hostile comments one by one with their reasons, refuses what is not JSON, and writes nothing outside the repository', async () => {
    const parent = tempDir('findings-hostile-');
    const repo = makeRepo();
    const base = JSON.parse(readFileSync(REST[0]!, 'utf8'))[0] as Record<string, unknown>;
    const variant = (id: number, extra: Record<string, unknown>): string =>
      JSON.stringify({ ...base, id, html_url: `https://github.com/acme/shop/pull/9#discussion_r${id}`, ...extra });
    const lines = [
      variant(1, { path: '../../outside.ts' }),
      variant(2, { path: `${parent}/abs.ts` }),
      variant(3, { path: 'src/a\u0007.ts' }),
      variant(4, { body: undefined }),
      variant(5, { created_at: 'not a date' }),
      JSON.stringify({ kind: 'something else' }),
      '42',
      variant(6, { body: `Please rename ${'y'.repeat(2_000_000)}` }),
      variant(7, { body: 'Fine \u0000 text\u001b[2J with controls' }),
    ];
    const file = path.join(parent, 'hostile.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await run(repo, ['import', 'github', file, '--json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { skipped: { line: number; reason: string }[]; tasks: { task: string; filed: number }[] };
    expect(result.skipped.map((s) => [s.line, s.reason])).toEqual([
      [1, 'its path "../../outside.ts" contains a ".." segment'],
      [2, `its path ${JSON.stringify(`${parent}/abs.ts`)} is absolute (use a path relative to the repository root)`],
      [
        3,
        'its path "src/a\\u0007.ts" contains a control character (U+0007); line breaks, tabs and other control characters are not allowed',
      ],
      [4, 'has no "body"'],
      [5, 'has no valid "created_at"'],
      [6, 'not a review comment, review thread, GraphQL page or discussion (unknown shape)'],
      [7, 'a value that is not an object (a comment, thread or page) was skipped'],
    ]);
    expect(result.tasks).toMatchObject([{ task: 'PR-9', filed: 2 }]);
    const ledger = repo.read('.agents/reviews/PR-9.jsonl');
    expect(ledger).toContain('"expected":"Fine text [2J with controls"');
    // The reader keeps 8,000 characters of a body; the marker counts all that was left out (2,000,014 − 276 kept).
    expect(ledger).toMatch(/"expected":"Please rename y{262}…\[1999738 chars omitted\]"/);
    expect(readdirSync(parent).sort()).toEqual(['hostile.jsonl']);

    const before = agentsFiles(repo);
    writeFileSync(file, '[{"id": 1}]\n<html>not json</html>\n');
    const bad = await run(repo, ['import', 'github', file]);
    expect(bad.code).toBe(2);
    expect(bad.stdout + bad.stderr).toContain(`${file}:2`);
    expect(bad.stdout + bad.stderr).toContain('not JSON: unexpected "<"');
    expect((await run(repo, ['import', 'github', path.join(parent, 'missing.json')])).code).toBe(2);
    expect(agentsFiles(repo)).toEqual(before);
  });
});
