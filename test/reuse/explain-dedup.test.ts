/**
 * `explain` links a registry entry to the candidate that proposed it by dedup_key, also when the
 * entry's id is not the candidate's proposed id (renamed by hand, or merged into an older line).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOk } from '../helpers/findings.js';
import { FIXTURES, makeRepo } from '../helpers/repo.js';

const ENV = { FINDINGS_NOW: '2026-03-01T10:00:00Z' };
const DIR = path.join(FIXTURES, 'reuse/explain');
const REGISTRY = '.agents/findings/registry.jsonl';

describe('explain by dedup_key', () => {
  it('finds the candidate of an entry whose id differs from the proposed id', async () => {
    const repo = makeRepo({ 'src/a.ts': 'console.log(1);\n' });
    repo.commitAll('a');
    for (const t of ['T-1', 'T-2']) {
      await expectOk(repo, ['review', 'task', t, '--criterion', 'works', '--objective', `objective ${t}`], ENV);
      await expectOk(repo, ['review', 'fail', t, '--findings', path.join(DIR, 'round-1.json')], ENV);
    }
    await expectOk(repo, ['recur'], ENV);
    await expectOk(repo, ['recur', '--promote', 'debug-console-log'], ENV);
    const proposed = (JSON.parse(repo.read(REGISTRY)) as { id: string }).id;
    expect(proposed).not.toBe('f-renamed');
    repo.write(REGISTRY, repo.read(REGISTRY).replace(`"id":"${proposed}"`, '"id":"f-renamed"'));
    const chain = JSON.parse(await expectOk(repo, ['explain', 'f-renamed', '--format', 'json'], ENV)) as {
      matched: string;
      registry: { id: string } | null;
      candidate: { class_key: string } | null;
    };
    expect(chain.matched).toBe('finding');
    expect(chain.registry?.id).toBe('f-renamed');
    expect(chain.candidate?.class_key).toBe('debug-console-log');
  });
});
