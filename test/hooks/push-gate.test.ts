/**
 * The push gate through real `git push` runs with a real pre-push hook (docs/hooks.md, "What a
 * change can and cannot do to its own judgment"): every name a push carries is a task; the
 * gate's settings and roles are read at the remote side of the range; the registry, artifacts
 * and ledgers of the pushed range are validated.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, makeRepo, runFindings, withPrePushRemote, type TestRepo } from '../helpers/repo.js';
import { fixture } from './setup.js';

const LEDGER = '.agents/reviews/T-1.jsonl';
const NOW = '2026-03-04T05:06:07Z';
const DEV = 'dev@example.com';

/** A repository with the review fixture, a bare remote `origin`, a real pre-push hook, and `main` pushed. */
function pushRepo(): TestRepo {
  const r = makeRepo({ 'app.py': 'print(1)\n' });
  r.copy('review/repo');
  r.commitAll('init');
  withPrePushRemote(r);
  expect(push(r, ['origin', 'main']).code).toBe(0);
  return r;
}
const review = (r: TestRepo, args: string[], env: NodeJS.ProcessEnv = {}) =>
  runFindings(['review', ...args], { cwd: r.root, env: { FINDINGS_NOW: NOW, ...env } });
const push = (r: TestRepo, args: string[]) => {
  const res = r.tryGit(['push', '-q', ...args]);
  return { code: res.code, out: res.stdout + res.stderr };
};
/** Commits everything as `email` (the author the roles rules look at). */
const commitAs = (r: TestRepo, email: string, message: string): string => {
  r.git('add', '-A');
  const res = r.tryGit(['commit', '-q', '--no-verify', '-m', message], { GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_EMAIL: email });
  if (res.code !== 0) throw new Error(res.stderr);
  return r.git('rev-parse', 'HEAD').trim();
};
const remoteHas = (r: TestRepo, ref: string): boolean => r.git('ls-remote', 'origin', ref).trim() !== '';

describe('push under another local name', () => {
  it('git push origin HEAD:T-1 is refused while T-1 has an open finding (the remote ref names the task)', async () => {
    const r = pushRepo();
    r.git('checkout', '-q', '-b', 'wip');
    await review(r, ['fail', 'T-1', '--issue', 'no retry']);
    r.commitAll('qa fails T-1');
    const refused = push(r, ['origin', 'HEAD:T-1']);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('review/open-finding');
    expect(remoteHas(r, 'refs/heads/T-1')).toBe(false);
  });

  it('one commit pushed under two names is judged under each name', async () => {
    const r = pushRepo();
    r.git('checkout', '-q', '-b', 'wip');
    await review(r, ['fail', 'T-1', '--issue', 'no retry']);
    r.commitAll('qa fails T-1');
    for (const names of [
      ['HEAD:aa', 'HEAD:T-1'],
      ['HEAD:T-1', 'HEAD:zz'],
    ]) {
      const refused = push(r, ['origin', ...names]);
      expect(refused.code).not.toBe(0);
      expect(refused.out.match(/open qa finding on task T-1/g)).toHaveLength(1);
    }
  });

  it('git push origin wip:T-1 is refused too', async () => {
    const r = pushRepo();
    r.git('checkout', '-q', '-b', 'wip');
    await review(r, ['fail', 'T-1', '--issue', 'no retry']);
    r.commitAll('qa fails T-1');
    r.git('checkout', '-q', 'main');
    const refused = push(r, ['origin', 'wip:T-1']);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('open qa finding on task T-1');
  });

  it('a Task: trailer anywhere in the pushed range names a task, not only on the tip', async () => {
    const r = pushRepo();
    await review(r, ['fail', 'T-1', '--issue', 'no retry']);
    r.git('add', '-A');
    r.git('commit', '-q', '--no-verify', '-m', 'qa\n\nTask: T-1');
    r.write('app.py', 'print(3)\n');
    r.commitAll('unrelated tip');
    const refused = push(r, ['origin', 'main']);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('open qa finding on task T-1');
  });
});

describe("the gate's own settings arriving in the same push", () => {
  it('a task_branch_pattern of ^$ committed in the range does not switch the gate off for that push', async () => {
    const r = pushRepo();
    r.git('checkout', '-q', '-b', 'feature/T-1');
    await review(r, ['fail', 'T-1', '--issue', 'no retry']);
    r.commitAll('qa fails T-1');
    r.write('.agents/config.json', JSON.stringify({ task_branch_pattern: '^$' }));
    r.commitAll('switch the gate off');
    const refused = push(r, ['origin', 'feature/T-1']);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('open qa finding on task T-1');
  });

  it('an invalid task_branch_pattern at the remote side is an error (exit 1), never "no task"', async () => {
    const r = pushRepo();
    r.write('.agents/config.json', JSON.stringify({ task_branch_pattern: '(' }));
    r.commitAll('broken pattern');
    expect(push(r, ['--no-verify', 'origin', 'main']).code).toBe(0);
    r.git('checkout', '-q', '-b', 'feature/T-2');
    r.write('app.py', 'print(2)\n');
    r.commitAll('work');
    const refused = push(r, ['origin', 'feature/T-2']);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('config/invalid-setting');
    expect(refused.out).toContain('task_branch_pattern');
  });

  it('a pattern without a capture group is invalid as well', async () => {
    const { parseConfig } = await import('../../src/config.js');
    const { diagnostics } = parseConfig(JSON.stringify({ task_branch_pattern: '^feature/' }));
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'error', ruleId: 'config/invalid-setting' })]);
  });
});

describe('self-granted roles', () => {
  it('a waiver by someone who became auditor inside the pushed range is refused, naming the granting commit; the next push accepts it', async () => {
    const r = pushRepo();
    const filed = await review(r, ['fail', 'T-1', '--findings', path.join(FIXTURES, 'review/findings/valid.json')]);
    expect(filed.code).toBe(0);
    r.commitAll('qa');
    expect(push(r, ['origin', 'main'])).toMatchObject({ code: 0 });
    const minor = (JSON.parse(r.read(LEDGER).split('\n')[1]!) as { finding_id: string }).finding_id;

    r.git('checkout', '-q', '-b', 'dev-work');
    r.write('.agents/roles.json', `${JSON.stringify({ auditor: ['auditor@example.com', DEV], ceo: ['ceo@example.com'] }, null, 2)}\n`);
    const grant = commitAs(r, DEV, 'make myself auditor');
    const waiver = JSON.stringify({
      event_id: 'e'.repeat(32),
      type: 'waived',
      task: 'T-1',
      finding_id: minor,
      note: 'fine',
      actor: DEV,
      at: NOW,
    });
    r.write(LEDGER, `${r.read(LEDGER)}${waiver}\n`);
    commitAs(r, DEV, 'waive it');
    // findings validate accepts it: the author is listed at the commit that added the line.
    expect((await runFindings(['validate'], { cwd: r.root })).stdout).not.toContain('review/role-not-held');

    const refused = push(r, ['origin', 'dev-work']);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('review/role-granted-in-push');
    expect(refused.out).toContain(grant.slice(0, 12));
    expect(remoteHas(r, 'refs/heads/dev-work')).toBe(false);

    // The grant travels alone first (and is reviewed there); from the next push on, it counts.
    expect(push(r, ['origin', `${grant}:refs/heads/dev-work`])).toMatchObject({ code: 0 });
    const accepted = push(r, ['origin', 'dev-work']);
    expect(accepted).toMatchObject({ code: 0 });
  });
});

describe('pushed ranges are validated', () => {
  it('a clean merge=union that leaves two active lines with one dedup_key cannot be pushed', async () => {
    const r = pushRepo();
    r.write('.gitattributes', '.agents/findings/registry.jsonl merge=union\n');
    r.write('.agents/findings/registry.jsonl', '');
    r.commitAll('attributes');
    const [one, two] = fixture('registry-duplicate.jsonl').split('\n');
    r.git('checkout', '-q', '-b', 'left');
    r.write('.agents/findings/registry.jsonl', `${one}\n`);
    r.commitAll('left');
    r.git('checkout', '-q', 'main');
    r.write('.agents/findings/registry.jsonl', `${two}\n`);
    r.commitAll('right');
    expect(r.tryGit(['merge', '-q', '--no-edit', '--no-verify', 'left']).code).toBe(0);
    const refused = push(r, ['origin', 'main']);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/dedup_key/);
  });

  it('an invalid registry line in the pushed range is refused', async () => {
    const r = pushRepo();
    r.write('.agents/findings/registry.jsonl', '{"id": "f-2026-03-09-001"}\n');
    r.commitAll('a broken line');
    const refused = push(r, ['origin', 'main']);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('.agents/findings/registry.jsonl');
  });

  it('an artifact without front matter in the pushed range is refused; a review note is not an artifact', async () => {
    const r = pushRepo();
    r.write('.agents/findings/f-2026-03-09-001.md', 'no front matter here\n');
    r.write('.agents/reviews/T-9.md', '# generated note\n');
    r.commitAll('a broken artifact');
    const refused = push(r, ['origin', 'main']);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('.agents/findings/f-2026-03-09-001.md:1:1  error');
    expect(refused.out).toContain('artifact/no-front-matter');
    expect(refused.out).not.toContain('.agents/reviews/T-9.md');
  });
});
