/** `findings explain --format json`: the exact bytes of the documented, stable shape (docs/reuse.md, "JSON shape"). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExplainChain } from '../../src/reuse/explain/types.js';
import { renderExplainJson } from '../../src/reuse/explain/render.js';
import { FIXTURES, PACKAGE_ROOT } from '../helpers/repo.js';

const FIXTURE = path.join(FIXTURES, 'reuse/explain/chain.json');

/** The same value with every object's keys in reverse order, so only the serializer can restore them. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

/** Each object's key list, by path (list elements share `[]`). */
function keyOrders(value: unknown, at = '$', out = new Map<string, string[]>()): Map<string, string[]> {
  if (Array.isArray(value)) for (const v of value) keyOrders(v, `${at}[]`, out);
  else if (typeof value === 'object' && value !== null) {
    if (!out.has(at)) out.set(at, Object.keys(value));
    for (const [k, v] of Object.entries(value)) keyOrders(v, `${at}.${k}`, out);
  }
  return out;
}

describe('explain JSON shape', () => {
  const fixture = readFileSync(FIXTURE, 'utf8');

  it('serializes every link in its documented key order, byte for byte', () => {
    const chain = reversed(JSON.parse(fixture)) as ExplainChain;
    expect(renderExplainJson(chain)).toBe(fixture);
  });

  it("puts a labelled hit's `at` as commit, path, line and a registry source as repo, session, file, skill", () => {
    const orders = keyOrders(JSON.parse(renderExplainJson(reversed(JSON.parse(fixture)) as ExplainChain)));
    expect(orders.get('$.constraint.measurement.labelled_hits[].at')).toEqual(['commit', 'path', 'line']);
    expect(orders.get('$.registry.source')).toEqual(['repo', 'session', 'file', 'skill']);
    expect(orders.get('$.review_findings[].at')).toEqual(['file', 'line']);
    expect(orders.get('$.pulled_from')).toEqual(['url', 'file', 'line', 'tier', 'commit', 'ref']);
  });

  it('agrees with the example and the pulled_from key order in docs/reuse.md', () => {
    const doc = readFileSync(path.join(PACKAGE_ROOT, 'docs/reuse.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### JSON shape (stable)'));
    const example = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    const documented = keyOrders(JSON.parse(example));
    const actual = keyOrders(JSON.parse(fixture));
    expect(documented.size).toBeGreaterThan(10);
    for (const [at, keys] of documented) expect([at, actual.get(at)]).toEqual([at, keys]);
    const pulled = /`pulled_from` is `\{ ([^}]*) \}`/
      .exec(section)![1]!
      .split(', ')
      .map((k) => JSON.parse(k) as string);
    expect(pulled).toEqual(actual.get('$.pulled_from'));
    expect(section).toContain(`(key order: ${pulled.join(', ')})`);
  });
});
