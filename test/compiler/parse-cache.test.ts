/**
 * The front-matter parse memos (compiler/parse-cache.ts) answer as a parse does. The compiler
 * seeds them with its own promoted front matter, an ordinary object; a hit must still give data
 * without a prototype, as readFrontMatter's does, so that a key like `constructor` or `toString`
 * in an artifact is never answered from Object.prototype.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryParseCache, openParseCache } from '../../compiler/parse-cache.js';
import { readFrontMatter } from '../../src/frontmatter.js';
import { tempDir } from '../helpers/repo.js';

const TEXT = '---\nid: f-1\ntitle: "A title"\n---\n\nBody.\n';
const FILE = '.agents/findings/f-1.md';

describe('a memo seeded with an ordinary object answers as a parse does', () => {
  const parsed = readFrontMatter(TEXT, FILE);

  it('the parse itself gives data without a prototype', () => {
    expect(parsed.ok && Object.getPrototypeOf(parsed.data)).toBeNull();
  });

  for (const [name, open] of [
    ['in memory', () => memoryParseCache()],
    [
      'persistent',
      () => {
        const dir = tempDir();
        mkdirSync(path.join(dir, 'findings-compiler'));
        return openParseCache(dir)!;
      },
    ],
  ] as const) {
    it(`${name}: the hit's data has no prototype and the same keys; the seed is left as given`, () => {
      const memo = open();
      const seed = { id: 'f-1', title: 'A title' };
      memo.set(TEXT, FILE, { ok: true, data: seed, yamlLine: 2, yaml: 'id: f-1\ntitle: "A title"\n' });
      const hit = memo.get(TEXT, FILE);
      expect(hit?.ok).toBe(true);
      if (!hit?.ok || !parsed.ok) return;
      expect(Object.getPrototypeOf(hit.data)).toBeNull();
      expect({ ...hit.data }).toEqual({ ...parsed.data });
      expect('constructor' in hit.data).toBe(false);
      expect(Object.getPrototypeOf(seed)).toBe(Object.prototype);
      // The same answer again, not a fresh copy each time.
      expect(memo.get(TEXT, FILE)).toBe(hit);
    });
  }
});
