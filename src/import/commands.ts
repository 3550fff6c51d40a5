/**
 * `--print-commands`: the exact commands that make an export (docs/import.md, "Making the export").
 * The tool itself never calls a network API. Pure.
 */

/** `owner/repo` (GitHub) and `group/…/project` (GitLab) in the characters the forges allow, so the commands need no quoting beyond what they have. */
const GITHUB_REPO = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;
const GITLAB_PROJECT = /^[A-Za-z0-9_.-]{1,255}(\/[A-Za-z0-9_.-]{1,255}){1,20}$/;

/**
 * The GraphQL query for review threads: 20 pull requests a page (20 × 100 threads × 100 comments
 * stays under GitHub's 500,000-node limit), `$endCursor` and `pageInfo` so `gh --paginate` walks
 * the pages. Only GraphQL says whether a thread is resolved (docs/stack-pitfalls.md#15).
 */
export const REVIEW_THREADS_QUERY = [
  'query($owner: String!, $repo: String!, $endCursor: String) {',
  '  repository(owner: $owner, name: $repo) {',
  '    pullRequests(first: 20, after: $endCursor) {',
  '      pageInfo { hasNextPage endCursor }',
  '      nodes {',
  '        number url',
  '        reviewThreads(first: 100) {',
  '          pageInfo { hasNextPage }',
  '          nodes {',
  '            isResolved resolvedBy { login } path line originalLine diffSide',
  '            comments(first: 100) {',
  '              nodes {',
  '                databaseId url body createdAt updatedAt author { login __typename }',
  '                diffHunk path line originalLine commit { oid } originalCommit { oid }',
  '              }',
  '            }',
  '          }',
  '        }',
  '      }',
  '    }',
  '  }',
  '}',
].join('\n');

/** The `gh api` commands for a GitHub repository, or null when `repo` is not `owner/repo`. */
export function githubCommands(repo: string): string | null {
  if (!GITHUB_REPO.test(repo) || repo.includes('..')) return null;
  const [owner, name] = repo.split('/') as [string, string];
  return [
    `# Review comments (REST): every page, as gh prints them (arrays back to back).`,
    `gh api --paginate 'repos/${owner}/${name}/pulls/comments?per_page=100' > review-comments.json`,
    '',
    '# Review threads with their resolution (GraphQL): one object per page of 20 pull requests.',
    `gh api graphql --paginate -F owner='${owner}' -F repo='${name}' -f query='`,
    REVIEW_THREADS_QUERY,
    `' > review-threads.json`,
    '',
    '# Then, in the repository the pull requests were made in:',
    'findings import github review-comments.json',
    'findings import github review-threads.json',
    '',
  ].join('\n');
}

/** The `glab api` commands for a GitLab project, or null when `project` is not `group/project`. */
export function gitlabCommands(project: string): string | null {
  if (!GITLAB_PROJECT.test(project) || project.split('/').includes('..')) return null;
  const encoded = project.split('/').join('%2F');
  return [
    '# Merge request discussions: one array per page, for every merge request of the project.',
    `glab api --paginate 'projects/${encoded}/merge_requests?state=all&per_page=100' | jq -r '.[].iid' |`,
    `  while read -r iid; do glab api --paginate "projects/${encoded}/merge_requests/$iid/discussions?per_page=100"; done \\`,
    '  > discussions.json',
    '',
    "# Then, in the repository the merge requests were made in (the URL makes each comment's link):",
    `findings import gitlab --project-url 'https://gitlab.com/${project}' discussions.json`,
    '',
  ].join('\n');
}
