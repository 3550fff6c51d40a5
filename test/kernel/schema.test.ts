import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { describeErrors, validate, type SchemaName } from '../../src/schema.js';
import { PACKAGE_ROOT } from '../helpers/repo.js';

const require = createRequire(import.meta.url);
const names = readdirSync(path.join(PACKAGE_ROOT, 'schemas'))
  .filter((f) => f.endsWith('.schema.json'))
  .map((f) => f.replace('.schema.json', '') as SchemaName);

describe('precompiled validators', () => {
  it.each(names)('%s is built from the current schema and agrees with a runtime compile', (name) => {
    const text = readFileSync(path.join(PACKAGE_ROOT, 'schemas', `${name}.schema.json`), 'utf8');
    const built = require(path.join(PACKAGE_ROOT, 'dist', 'validators', `${name}.cjs`)) as { schemaHash: string };
    expect(built.schemaHash).toBe(createHash('sha256').update(text).digest('hex'));
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormatsModule.default(ajv);
    const runtime = ajv.compile(JSON.parse(text) as object);
    for (const sample of [{}, { id: 1 }, [], { version: 1, constraints: [{ id: 'x' }] }, { date: 'not-a-date' }]) {
      const expected = runtime(sample) ? [] : describeErrors(runtime.errors ?? []);
      expect(validate(name, sample)).toEqual(expected);
    }
  });
});
