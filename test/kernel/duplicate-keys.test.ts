/** Fail closed on duplicate JSON keys: an error, never "the last one wins" (docs/hooks.md). */
import { describe, expect, it } from 'vitest';
import { parseConstraintIndex } from '../../src/constraints/index-file.js';
import { parseConfig } from '../../src/config.js';
import { duplicateKey, duplicateKeyIn, parseJsonDocument, parseJsonl } from '../../src/jsonl.js';
import { prng } from '../../src/prng.js';
import { validateRegistryText } from '../../src/registry/validate.js';

describe('duplicateKey', () => {
  it('finds a key repeated in one object, at any depth, compared decoded', () => {
    expect(duplicateKey('{"a":1,"a":2}')).toEqual({ offset: 7, key: 'a' });
    expect(duplicateKey('{"x":[{"a":1,"b":{"c":1,"c":2}}]}')).toMatchObject({ key: 'c' });
    expect(duplicateKey('{"a":1,"\\u0061":2}')).toMatchObject({ key: 'a' });
    expect(duplicateKey('{"a\\"b":1,"a\\"b":2}')).toMatchObject({ key: 'a"b' });
  });

  it('accepts equal keys in different objects, and keys that only appear inside strings', () => {
    expect(duplicateKey('[{"a":1},{"a":2}]')).toBeNull();
    expect(duplicateKey('{"a":{"a":1},"b":"\\"a\\": 2, \\"a\\":"}')).toBeNull();
    expect(duplicateKey('{"a":[1,{"b":1}],"b":2}')).toBeNull();
  });
});

describe('duplicateKeyIn (a count first, the scan only when the counts differ)', () => {
  const texts = [
    '{"a":1,"a":2}',
    '{"x":[{"a":1,"b":{"c":1,"c":2}}]}',
    '{"a":1,"\\u0061":2}',
    '{"a\\"b":1,"a\\"b":2}',
    '[{"a":1},{"a":2}]',
    '{"a":{"a":1},"b":"\\"a\\": 2, \\"a\\":"}',
    '{"a":[1,{"b":1}],"b":2}',
    '{ "a" :\t1 ,\n "a"\r\n: 2 }',
    '{"url":"http://x:80/","t":"12:30","q":"\\\\","r":1}',
    '{"k":"\\\\","k":"ends with a backslash"}',
    '{"s":"a\\" : b","s2":"\\" :"}',
    '{"__proto__":1,"__proto__":2}',
    '{"__proto__":{"a":1,"a":2}}',
    '{"1":1,"2":{"x":1,"x":2},"0":3}',
    '"just a string: with a colon"',
    '{}',
  ];

  it('agrees with the scan on every case above', () => {
    for (const text of texts) expect([text, duplicateKeyIn(text, JSON.parse(text))]).toEqual([text, duplicateKey(text)]);
  });

  it('agrees with the scan on 2,000 generated documents, half of them with a repeated key', () => {
    const random = prng(20261202);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const keys = ['a', 'b', '__proto__', '1', 'a\\"', '\\u0061', 'x:y', ' '];
    const space = ['', ' ', '\n', '\t '];
    const doc = (depth: number): string => {
      const r = random();
      if (depth > 3 || r < 0.3) return pick(['1', 'null', '"v"', '"s: \\": t"', '"\\\\"', '[]']);
      if (r < 0.5) return `[${Array.from({ length: 1 + Math.floor(random() * 3) }, () => doc(depth + 1)).join(',')}]`;
      const n = 1 + Math.floor(random() * 4);
      const members = Array.from({ length: n }, () => `${pick(space)}"${pick(keys)}"${pick(space)}:${pick(space)}${doc(depth + 1)}`);
      return `{${members.join(',')}}`;
    };
    let repeated = 0;
    for (let i = 0; i < 2000; i += 1) {
      const text = doc(0);
      const expected = duplicateKey(text);
      if (expected !== null) repeated += 1;
      expect([text, duplicateKeyIn(text, JSON.parse(text))]).toEqual([text, expected]);
    }
    expect(repeated).toBeGreaterThan(200);
  });

  it('counts without recursion: a document nested 100,000 deep', () => {
    const deep = `${'[{"a":'.repeat(100_000)}1${'}]'.repeat(100_000)}`;
    expect(duplicateKeyIn(deep, JSON.parse(deep))).toBeNull();
  });
});

describe('readers refuse duplicate keys', () => {
  it("a JSON document: an error at the second key's line and column", () => {
    expect(parseJsonDocument('{\n  "version": 1,\n  "version": 2\n}')).toMatchObject({
      ok: false,
      line: 3,
      column: 3,
      reason: expect.stringContaining('duplicate key "version"'),
    });
  });

  it('the constraint index whose second "constraints" key would empty the first', () => {
    const active =
      '{"id":"x","finding_id":"x","title":"t","checklist_item":"c","status":"active","enforcement_mode":"block","source_artifact":".agents/findings/x.md",' +
      '"review_file":null,"compiled_at":"2026-01-01","applies_to":{"scope":"files","path_globs":["**"]},' +
      '"detector":{"kind":"regex","pattern":"x"},"evidence":{"positive_refs":["p"],"negative_control_refs":["n"]}}';
    const parsed = parseConstraintIndex(`{"version":1,"constraints":[${active}],"constraints":[]}`);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.diagnostics[0]!.ruleId).toBe('constraint-index/invalid-json');
  });

  it('config.json', () => {
    const r = parseConfig('{"match_budget_ms": 250, "match_budget_ms": 100000}');
    expect(r.diagnostics.map((d) => d.message).join('\n')).toMatch(/duplicate key "match_budget_ms"/);
  });

  it('JSON lines (ledgers) and registry lines', () => {
    expect(parseJsonl('{"a":1}\n{"kind":"open","kind":"waive"}\n').map((l) => l.kind)).toEqual(['json', 'invalid']);
    const out = validateRegistryText('.agents/findings/registry.jsonl', '{"id":"a","status":"active","status":"retired"}\n');
    expect(out.map((d) => [d.line, d.ruleId, d.message.includes('duplicate key "status"')])).toContainEqual([
      1,
      'registry/invalid-json',
      true,
    ]);
  });
});
