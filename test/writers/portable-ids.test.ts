/**
 * Portable ids: wherever an id becomes a file name, Windows reserved device names, a trailing dot
 * or space, and ids differing from an existing one only in case are refused — as validate
 * diagnostics and as writer refusals.
 */
import { describe, expect, it } from 'vitest';
import { caseClash, idFileNameProblem } from '../../src/layout.js';
import { validateRegistryText } from '../../src/registry/validate.js';
import { makeRepo, runFindings } from '../helpers/repo.js';
import { entry, jsonl, REGISTRY } from '../registry/entries.js';

describe('idFileNameProblem', () => {
  it.each(['CON', 'con', 'Prn', 'AUX', 'nul', 'COM1', 'com9', 'LPT1', 'lpt9', 'CON.md', 'nul.txt', 'Com3.x.y'])(
    'refuses the reserved name %s',
    (id) => {
      expect(idFileNameProblem(id)).toMatch(/device name Windows reserves/);
    },
  );
  it.each(['a.', 'f-1.', 'f-1..'])('refuses the trailing dot in %s', (id) => {
    expect(idFileNameProblem(id)).toMatch(/ends with a dot or a space/);
  });
  it('refuses a trailing space (already outside SAFE_ID)', () => {
    expect(idFileNameProblem('f-1 ')).toMatch(/must match/);
  });
  it.each(['CONSOLE', 'con-1', 'COM0', 'COM10', 'LPT', 'f-con', 'f-1.md', 'nuls'])('accepts %s', (id) => {
    expect(idFileNameProblem(id)).toBeNull();
  });
  it('caseClash names the existing id that differs only in case', () => {
    expect(caseClash('F-1', ['f-2', 'f-1'])).toBe('f-1');
    expect(caseClash('f-1', ['f-1', 'f-2'])).toBeUndefined();
  });
});

describe('validate', () => {
  it('reports a reserved id, a trailing dot and a case-only clash in the registry', () => {
    const text = jsonl(
      entry({ id: 'CON', pattern: 'One' }),
      entry({ id: 'f-a.', pattern: 'Two' }),
      entry({ id: 'f-b', pattern: 'Three' }),
      entry({ id: 'F-B', pattern: 'Four' }),
    );
    const d = validateRegistryText(REGISTRY, text).filter((x) => x.ruleId === 'registry/unsafe-id' || x.ruleId === 'registry/case-clash');
    expect(d.map((x) => [x.line, x.ruleId])).toEqual([
      [1, 'registry/unsafe-id'],
      [2, 'registry/unsafe-id'],
      [4, 'registry/case-clash'],
    ]);
    expect(d[2]!.message).toBe('id "F-B" differs from "f-b" (line 3) only in case (they would be one file on Windows and macOS)');
  });
});

describe('writers', () => {
  it('add refuses CON and an id that differs from an existing one only in case; nothing written', async () => {
    const text = jsonl(entry({ id: 'f-b', pattern: 'Three' }));
    const repo = makeRepo({ [REGISTRY]: text });
    const con = await runFindings(['add', '--root', repo.root], {
      cwd: repo.root,
      stdin: JSON.stringify(entry({ id: 'CON', pattern: 'One' })),
    });
    expect(con.code).toBe(1);
    expect(con.stdout).toContain('id is a device name Windows reserves (CON)');
    const clash = await runFindings(['add', '--root', repo.root], {
      cwd: repo.root,
      stdin: JSON.stringify(entry({ id: 'F-B', pattern: 'Four' })),
    });
    expect(clash.code).toBe(1);
    expect(clash.stdout).toContain('id "F-B" differs from "f-b" only in case');
    expect(repo.read(REGISTRY)).toBe(text);
  });

  it('compile does not promote CON to CON.md', async () => {
    const repo = makeRepo({ [REGISTRY]: jsonl(entry({ id: 'CON', pattern: 'One' })) });
    const r = await runFindings(['compile', '--root', repo.root], { cwd: repo.root });
    expect(r.stdout + r.stderr).toContain('id "CON" cannot be promoted: it is a device name Windows reserves');
    expect(repo.exists('.agents/findings/CON.md')).toBe(false);
  });

  it('review refuses a reserved task id before writing anything', async () => {
    const repo = makeRepo();
    repo.copy('review/repo');
    const r = await runFindings(['review', 'fail', 'nul', '--issue', 'x'], { cwd: repo.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"nul" is not a valid task id: it is a device name Windows reserves (NUL)');
    expect(repo.exists('.agents/reviews')).toBe(false);
  });
});
