/**
 * The small history the import fixtures were made from (test/fixtures/import/README.md): three
 * pull requests, each one commit, with fixed identities and dates, so the commits have the same
 * ids on every machine and the exports can name them.
 */
import { makeRepo, type TestRepo } from '../helpers/repo.js';

export const APP_TS = [
  "import { loadConfig } from './config';",
  '',
  'export function start() {',
  '  const config = loadConfig();',
  '  return config;',
  '}',
  '',
].join('\n');

/** [message, date, files] per commit, oldest first. */
const COMMITS: readonly [string, string, Record<string, string>][] = [
  [
    'initial',
    '2026-01-05T09:00:00Z',
    {
      'src/app.ts': APP_TS,
      'src/db.ts': 'export const db = { all: (t: string) => [t], get: async (t: string, id: string) => [t, id] };\n',
    },
  ],
  [
    'users (#1)',
    '2026-01-06T09:00:00Z',
    {
      'src/users.ts': [
        "import { db } from './db';",
        '',
        'export function loadUsers() {',
        "  const users = db.all('users');",
        "  console.log('loaded users', users);",
        '  return users;',
        '}',
        '',
      ].join('\n'),
    },
  ],
  [
    'orders (#2)',
    '2026-01-07T09:00:00Z',
    {
      'src/orders.ts': [
        "import { db } from './db';",
        '',
        'export async function totals(ids: string[]) {',
        '  const out = [];',
        '  for (const id of ids) {',
        "    out.push(await db.get('orders', id));",
        '  }',
        "  console.log('order totals', out);",
        '  return out;',
        '}',
        '',
      ].join('\n'),
    },
  ],
  [
    'billing (#3)',
    '2026-01-08T09:00:00Z',
    {
      'src/app.ts': APP_TS.replace('  return config;', "  console.log('starting', config);\n  return config;"),
      'src/billing.ts': [
        'export function charge(amount: number) {',
        '  try {',
        '    return pay(amount);',
        '  } catch (e) {',
        '    return null;',
        '  }',
        '}',
        'declare function pay(n: number): number;',
        '',
      ].join('\n'),
    },
  ],
  [
    // What GitHub's "Commit suggestion" makes of the suggestion on PR 3 (the fixtures' comment 3001).
    'Apply suggestions from code review (#3)',
    '2026-01-08T12:00:00Z',
    { 'src/app.ts': APP_TS.replace('  return config;', "  logger.debug('starting', config);\n  return config;") },
  ],
];

/** The commit ids the fixtures name, oldest first (test/fixtures/import/README.md). */
export const SHAS = [
  '69dae4546a4285b3505a9f36a68b6ca1d502c6f8',
  'bf6bc5d0dea260bdcc62d6416037624952c73d62',
  '6dd6afe993d33d8613da62f79f3238c450346109',
  '7ed3b7359e7611c0a8851ffeddf94ed5557226d6',
  'dfdf2a30be770c312c8e6782a1febbc139856b61',
];

/** Builds the history in a fresh repository; returns it and the commit ids, oldest first. */
export function importHistory(): { repo: TestRepo; shas: string[] } {
  const repo = makeRepo();
  const shas: string[] = [];
  for (const [message, date, files] of COMMITS) {
    for (const [rel, text] of Object.entries(files)) repo.write(rel, text);
    repo.git('add', '-A');
    const r = repo.tryGit(['commit', '-q', '--no-verify', '-m', message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    if (r.code !== 0) throw new Error(r.stderr);
    shas.push(repo.git('rev-parse', 'HEAD').trim());
  }
  return { repo, shas };
}
