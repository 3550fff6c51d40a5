/**
 * Writers never write a line they would reject: the registry writer re-reads every line it is
 * about to write and refuses the whole write (exit 1, nothing written, the reason named).
 */
import { describe, expect, it } from 'vitest';
import { makeRepo, runFindings } from '../helpers/repo.js';
import { entry, jsonl, line, REGISTRY } from '../registry/entries.js';

describe('writers refuse schema-invalid lines', () => {
  it('cite on hit_count: 1e400 (Infinity once parsed, written as null) exits 1 and writes nothing', async () => {
    const text = jsonl(line(entry({ id: 'f-1' })).replace('"hit_count":0', '"hit_count":1e400'), entry({ id: 'f-2', pattern: 'Other' }));
    expect(text).toContain('1e400');
    const repo = makeRepo({ [REGISTRY]: text });
    const r = await runFindings(['cite', 'f-1', '--root', repo.root], { cwd: repo.root, env: { FINDINGS_NOW: '2026-07-01T08:00:00Z' } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`refused to write ${REGISTRY}:1, which would not be a valid registry entry`);
    expect(r.stderr).toContain('hit_count');
    expect(repo.read(REGISTRY)).toBe(text);
  });

  it('a cite that stays valid still writes', async () => {
    const text = jsonl(entry({ id: 'f-1', hit_count: 5 }));
    const repo = makeRepo({ [REGISTRY]: text });
    const r = await runFindings(['cite', 'f-1', '--root', repo.root], { cwd: repo.root, env: { FINDINGS_NOW: '2026-07-01T08:00:00Z' } });
    expect(r.code, r.stderr).toBe(0);
    expect(repo.read(REGISTRY)).toContain('"hit_count":6');
  });
});
