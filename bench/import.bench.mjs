#!/usr/bin/env node
// Review import benchmark (docs/import.md "Speed and memory"): `findings import github` of a REST
// export with IMPORT_COMMENTS (10,000) review comments over IMPORT_PULLS (500) pull requests, as
// `gh api --paginate` prints them (pages of 100, arrays back to back), into a repository with no
// ledger yet; paired with its floor (node starting and reading the export). A second row imports
// a 100 MB export (the same comments with 10 KB diff hunks) and reports peak memory, which must
// stay flat: the export is streamed, never held whole. Runs against dist/.
// Target: 10,000 comments in <= 5 s on a quiet machine.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, emitResult, git, load, paired, printParams, prng, runs, size, timeOnce } from './lib/common.mjs';

const COMMENTS = size('IMPORT_COMMENTS', 10_000);
const PULLS = size('IMPORT_PULLS', 500);
const RUNS = runs('IMPORT_RUNS', 5);
const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

const WORDS = (
  'logger console error handling query loop cache retry timeout null check index bounds race lock ' +
  'transaction rollback validation input sanitize escape secret token password config default flag test coverage ' +
  'mock fixture naming rename extract helper duplicate dead code import unused variable type any cast async await promise'
).split(' ');
const LABELS = ['', '', 'nit: ', 'suggestion: ', 'issue: ', 'question: ', '**issue (blocking):** ', 'praise: '];

function user(login, bot) {
  const base = `https://api.github.com/users/${login}`;
  return {
    login,
    id: login.length * 7919,
    node_id: 'MDQ6VXNlcjE=',
    avatar_url: 'https://avatars.githubusercontent.com/u/1?v=4',
    gravatar_id: '',
    url: base,
    html_url: `https://github.com/${login}`,
    followers_url: `${base}/followers`,
    following_url: `${base}/following{/other_user}`,
    gists_url: `${base}/gists{/gist_id}`,
    starred_url: `${base}/starred{/owner}{/repo}`,
    subscriptions_url: `${base}/subscriptions`,
    organizations_url: `${base}/orgs`,
    repos_url: `${base}/repos`,
    events_url: `${base}/events{/privacy}`,
    received_events_url: `${base}/received_events`,
    type: bot ? 'Bot' : 'User',
    user_view_type: 'public',
    site_admin: false,
  };
}

/** Writes the export: `hunkBytes` pads each diff hunk (the 100 MB row). */
async function writeExport(file, hunkBytes) {
  const random = prng(42);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const out = createWriteStream(file);
  const write = (s) => (out.write(s) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  let page = [];
  let rootId = 0;
  const flush = async () => {
    if (page.length > 0) await write(JSON.stringify(page));
    page = [];
  };
  for (let i = 0; i < COMMENTS; i += 1) {
    const id = 100_000 + i;
    const pull = 1 + (i % PULLS);
    const reply = i % 2 === 1;
    if (!reply) rootId = id;
    const line = 1 + Math.floor(random() * 200);
    const words = Array.from({ length: 6 + Math.floor(random() * 20) }, () => pick(WORDS)).join(' ');
    const body = reply
      ? `Done, ${words}.`
      : `${pick(LABELS)}please look at the \`${pick(WORDS)}\` here: ${words}.${i % 10 === 0 ? `\n\n\`\`\`suggestion\n  ${pick(WORDS)}(${line});\n\`\`\`` : ''}`;
    const padding = hunkBytes > 0 ? `\n+// ${'x'.repeat(hunkBytes)}` : '';
    const hunk = `@@ -${line},6 +${line},7 @@\n context();\n+  ${pick(WORDS)}.${pick(WORDS)}(${line});${padding}\n+  ${pick(WORDS)}(${line});`;
    const html = `https://github.com/acme/shop/pull/${pull}#discussion_r${id}`;
    const api = `https://api.github.com/repos/acme/shop/pulls/comments/${id}`;
    page.push({
      url: api,
      pull_request_review_id: 9_000 + i,
      id,
      node_id: `PRRC_${id}`,
      diff_hunk: hunk,
      path: `src/${pick(WORDS)}/${pick(WORDS)}.ts`,
      commit_id: 'a'.repeat(40),
      original_commit_id: 'a'.repeat(40),
      ...(reply ? { in_reply_to_id: rootId } : {}),
      user: user(i % 97 === 0 ? 'ci-bot[bot]' : `dev${i % 13}`, i % 97 === 0),
      body,
      created_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString().replace('.000', ''),
      updated_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString().replace('.000', ''),
      html_url: html,
      pull_request_url: `https://api.github.com/repos/acme/shop/pulls/${pull}`,
      author_association: 'MEMBER',
      _links: { self: { href: api }, html: { href: html }, pull_request: { href: `https://api.github.com/repos/acme/shop/pulls/${pull}` } },
      reactions: {
        url: `${api}/reactions`,
        total_count: 0,
        '+1': 0,
        '-1': 0,
        laugh: 0,
        hooray: 0,
        confused: 0,
        heart: 0,
        rocket: 0,
        eyes: 0,
      },
      start_line: null,
      original_start_line: null,
      start_side: null,
      line,
      original_line: line,
      side: 'RIGHT',
      original_position: 3,
      position: 3,
      subject_type: 'line',
    });
    // Replies stay with their thread's page, as the API's id order mostly keeps them.
    if (page.length >= 100 && !reply) await flush();
  }
  await flush();
  await new Promise((r) => out.end(r));
}

const dir = mkdtempSync(path.join(tmpdir(), 'bench-import-'));
const repo = path.join(dir, 'repo');
git(dir, ['init', '-q', '-b', 'main', repo]);
git(repo, ['commit', '-q', '--allow-empty', '-m', 'empty']);
const small = path.join(dir, 'review-comments.json');
const large = path.join(dir, 'review-comments-100mb.json');
await writeExport(small, 0);
await writeExport(large, Math.max(0, Math.round((100 * 1024 * 1024) / COMMENTS) - 2_600));

if (process.argv.includes('--prepare-only')) {
  console.log(dir);
  process.exit(0);
}

printParams(`findings import github: ${COMMENTS} REST review comments over ${PULLS} pull requests`, {
  comments: COMMENTS,
  pulls: PULLS,
  runs: RUNS,
});

const fresh = () => git(repo, ['clean', '-fdxq']);
const importOnce = (file, rss = false) => {
  fresh();
  return timeOnce(process.execPath, [BIN, 'import', 'github', file], { cwd: repo, rss });
};
const floor = () => timeOnce(process.execPath, ['-e', 'require("fs").readFileSync(process.argv[1])', small], { cwd: repo });

importOnce(small); // warm the page cache for both sides alike
const r = paired(RUNS, [floor], () => importOnce(small));
const again = timeOnce(process.execPath, [BIN, 'import', 'github', small], { cwd: repo }); // idempotent: nothing to write
const memSmall = importOnce(small, true);
const memLarge = importOnce(large, true);
const floorMem = timeOnce(process.execPath, ['-e', '0'], { cwd: repo, rss: true });
rmSync(dir, { recursive: true, force: true });

const pass = r.subject <= 5_000;
console.log(`median of ${RUNS} paired runs (ms); load1 during runs ${r.load1.min}..${r.load1.max}`);
console.log('| row | figure | floor | ratio | paired ratio | target |');
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
console.log(
  `| import ${COMMENTS} comments (new ledger) | ${fmt(r.subject)} ms | ${fmt(r.floor)} ms (node + read the file) ` +
    `| ${fmt(r.subject / r.floor, 1)} | ${fmt(r.pairedRatio, 1)} | <= 5,000 ms: ${pass ? 'met' : 'MISSED'} |`,
);
console.log(`| import the same export again (writes nothing) | ${fmt(again.ms)} ms | | | | |`);
console.log(`| peak memory, ${COMMENTS} comments | ${fmt(memSmall.rssMb)} MB | ${fmt(floorMem.rssMb)} MB (node -e 0) | | | |`);
console.log(
  `| peak memory, the same comments in a 100 MB export | ${fmt(memLarge.rssMb)} MB, ${fmt(memLarge.ms)} ms | | | | flat: within 1.5x of the row above |`,
);
emitResult('import', { comments: COMMENTS, pulls: PULLS, runs: RUNS }, [
  {
    row: `import github (${COMMENTS} REST comments, ${PULLS} pull requests)`,
    figure: r.subject,
    unit: 'ms',
    floor: r.floor,
    floorLabel: 'node reading the export',
    ratio: r.subject / r.floor,
    target: '<= 5,000 ms',
    pass,
    load: load(),
  },
  {
    row: 'import github, 100 MB export: peak memory',
    figure: memLarge.rssMb,
    unit: 'MB',
    floor: memSmall.rssMb,
    floorLabel: `peak memory with ${COMMENTS} comments of ordinary size`,
    ratio: memLarge.rssMb / memSmall.rssMb,
    target: '<= 1.5x',
    pass: memLarge.rssMb <= 1.5 * memSmall.rssMb,
    load: load(),
  },
]);
