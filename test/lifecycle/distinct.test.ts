/**
 * Distinct hits (docs/lifecycle.md): a violation is listed once, at the commit that introduced
 * it; later commits that still have it add to its `seen`. Same for added-lines constraints.
 */
import { describe, expect, it } from 'vitest';
import { constraint, indexJson } from '../hooks/setup.js';
import { makeRepo, runFindings } from '../helpers/repo.js';
import { survivalHistory, writeCommits } from './history.js';

interface Hit {
  id: string;
  commit: string;
  path: string;
  line: number;
  seen: number;
  label?: string;
}
interface MeasurementFile {
  version: number;
  hits: Hit[];
  samples: number;
}

const FILES = constraint('files', { status: 'shadow', globs: ['src/**/*.js'] });
const ADDED = constraint('added', { status: 'shadow', globs: ['src/**/*.js'], scope: 'added-lines' });
const read = (repo: { read(p: string): string }, id: string): MeasurementFile =>
  JSON.parse(repo.read(`.agents/constraints/measurements/${id}.json`)) as MeasurementFile;

describe('distinct hits', () => {
  it('one violation surviving 20 commits is one hit; 20 violations introduced once each are 20 hits (files and added-lines alike)', async () => {
    const repo = makeRepo();
    const shas = survivalHistory(repo);
    repo.write('.agents/constraints/index.json', indexJson(FILES, ADDED));
    const r = await runFindings(['constraint', 'measure'], { cwd: repo.root });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (const id of ['files', 'added']) {
      const m = read(repo, id);
      expect(m.version).toBe(2);
      expect(m.samples).toBe(41);
      const keep = m.hits.filter((h) => h.path === 'src/keep.js');
      expect(keep).toEqual([{ id: `${shas[0]!.slice(0, 8)}:src/keep.js:2`, commit: shas[0], path: 'src/keep.js', line: 2, seen: 20 }]);
      const fresh = m.hits.filter((h) => h.path === 'src/new.js').sort((a, b) => a.line - b.line);
      expect(fresh).toHaveLength(20);
      fresh.forEach((h, k) => {
        expect({ commit: h.commit, line: h.line, seen: h.seen }).toEqual({ commit: shas[21 + k], line: k + 1, seen: 19 - k });
      });
    }
    expect(r.stdout).toContain('files: 41 samples, 21 distinct hits');
  });

  it('one more copy of a line is a new hit; a line removed and added again is a new hit; a moved line is not', async () => {
    const repo = makeRepo();
    const shas = writeCommits(repo, [
      { 'src/a.js': 'eval(x);\nok();\n' },
      { 'src/a.js': 'eval(x);\nok();\neval(x);\n' },
      { 'src/a.js': 'ok();\neval(x);\n' },
      { 'src/a.js': 'ok();\n' },
      { 'src/a.js': 'eval(x);\nok();\n' },
    ]);
    repo.write('.agents/constraints/index.json', indexJson(FILES));
    expect((await runFindings(['constraint', 'measure'], { cwd: repo.root })).code).toBe(0);
    const hits = read(repo, 'files').hits.map((h) => [shas.indexOf(h.commit) + 1, h.line, h.seen]);
    // commit 1 line 1 (seen at 2 and 3, where it moved); commit 2's extra copy (gone at 3); commit 5 re-adds it
    expect(hits.sort()).toEqual([
      [1, 1, 2],
      [2, 3, 0],
      [5, 1, 0],
    ]);
  });

  it('a must_contain violation (the file lacks the pattern) is one hit while it lasts', async () => {
    const repo = makeRepo();
    const shas = writeCommits(repo, [
      { 'src/a.js': 'one\n' },
      { 'src/a.js': 'two\n' },
      { 'src/a.js': 'use strict\n' },
      { 'src/a.js': 'three\n' },
    ]);
    const c = constraint('must', {
      status: 'shadow',
      globs: ['src/**/*.js'],
      detector: { kind: 'content_pattern', pattern: 'use strict', mode: 'must_contain' } as never,
    });
    repo.write('.agents/constraints/index.json', indexJson(c));
    expect((await runFindings(['constraint', 'measure'], { cwd: repo.root })).code).toBe(0);
    expect(read(repo, 'must').hits.map((h) => [shas.indexOf(h.commit) + 1, h.line, h.seen])).toEqual([
      [1, 1, 1],
      [4, 1, 0],
    ]);
  });

  it('reads a version 1 measurement and carries a label given on a later sighting to the distinct hit', async () => {
    const repo = makeRepo();
    const shas = survivalHistory(repo);
    repo.write('.agents/constraints/index.json', indexJson(FILES));
    // version 1 had one hit per commit that changed the file: label the sighting at commit 10 and new.js:3 at commit 30
    const v1hit = (c: number, path: string, line: number, label?: string) => ({
      id: `${shas[c - 1]!.slice(0, 8)}:${path}:${line}`,
      commit: shas[c - 1],
      path,
      line,
      ...(label ? { label } : {}),
    });
    const v1 = {
      version: 1,
      constraint_id: 'files',
      measured_at_commit: shas[40],
      range: { since: null, commits: null },
      commits: 41,
      detector: FILES.detector,
      applies_to: FILES.applies_to,
      samples: 41,
      hits: [v1hit(1, 'src/keep.js', 2), v1hit(10, 'src/keep.js', 11, 'true_positive'), v1hit(30, 'src/new.js', 3, 'false_positive')].sort(
        (a, b) => (a.id < b.id ? -1 : 1),
      ),
      errors: [],
    };
    repo.write('.agents/constraints/measurements/files.json', `${JSON.stringify(v1, null, 2)}\n`);
    // read as is: labels count before re-measuring
    const e = await runFindings(['explain', 'files', '--format', 'json'], { cwd: repo.root });
    expect(JSON.parse(e.stdout).constraint.measurement).toMatchObject({ labelled: 2, true_positives: 1 });
    const r = await runFindings(['constraint', 'measure', '--json'], { cwd: repo.root });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).diagnostics).toEqual([]);
    const m = read(repo, 'files');
    expect(m.version).toBe(2);
    expect(m.hits).toHaveLength(21);
    const labelled = m.hits.filter((h) => h.label !== undefined).map((h) => [shas.indexOf(h.commit) + 1, h.path, h.line, h.label] as const);
    expect([...labelled].sort((x, y) => x[0] - y[0])).toEqual([
      [1, 'src/keep.js', 2, 'true_positive'],
      [24, 'src/new.js', 3, 'false_positive'],
    ]);
  });
});
