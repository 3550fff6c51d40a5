import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, makeRepo, runFindings } from '../helpers/repo.js';

const NOW = { FINDINGS_NOW: '2026-03-01T00:00:00Z' };

function repoWithRegistry() {
  const repo = makeRepo();
  repo.copy(path.join(FIXTURES, 'lifecycle/ttl/registry.jsonl'), '.agents/findings/registry.jsonl');
  return repo;
}

describe('findings ttl', () => {
  it('lists active findings past ttl_days (from last_cited, else date) and changes nothing', async () => {
    const repo = repoWithRegistry();
    const before = repo.read('.agents/findings/registry.jsonl');
    const r = await runFindings(['ttl', '--json'], { cwd: repo.root, env: NOW });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { expired: { id: string; from: string; age_days: number }[]; retired: string[] };
    // exactly 30 days is not older than 30; ttl_days 0 never expires; retired entries are skipped
    expect(out.expired.map((e) => [e.id, e.from, e.age_days])).toEqual([
      ['f-old-uncited', 'date', 59],
      ['f-cited-long-ago', 'last_cited', 50],
    ]);
    expect(out.retired).toEqual([]);
    expect(repo.read('.agents/findings/registry.jsonl')).toBe(before);
    const text = await runFindings(['ttl'], { cwd: repo.root, env: NOW });
    expect(text.stdout).toContain('f-old-uncited: dated 2026-01-01, 59 days ago > ttl_days 30');
    expect(text.stdout).toContain('run `findings ttl --apply`');
  });

  it('--apply retires them through the registry writer', async () => {
    const repo = repoWithRegistry();
    const r = await runFindings(['ttl', '--apply'], { cwd: repo.root, env: NOW });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('retired 2 finding(s)');
    const status = Object.fromEntries(
      repo
        .read('.agents/findings/registry.jsonl')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; status: string })
        .map((e) => [e.id, e.status]),
    );
    expect(status).toEqual({
      'f-old-uncited': 'retired',
      'f-old-cited-recently': 'active',
      'f-cited-long-ago': 'retired',
      'f-exactly-30-days': 'active',
      'f-no-ttl': 'active',
      'f-retired-old': 'retired',
    });
    const again = await runFindings(['ttl'], { cwd: repo.root, env: NOW });
    expect(again.stdout).toContain('no active finding is past its ttl_days');
  });

  it('is fine without a registry', async () => {
    const r = await runFindings(['ttl'], { cwd: makeRepo().root, env: NOW });
    expect(r.code).toBe(0);
  });
});
