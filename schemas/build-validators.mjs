#!/usr/bin/env node
// Precompiles every schemas/*.schema.json into a standalone ajv validator under
// dist/validators/<name>.cjs, so commands (above all the pre-commit hook) neither import ajv
// nor compile schemas at start-up (~80 ms). Standalone code uses require(), hence .cjs
// (docs/stack-pitfalls.md#11). Each file records the hash of the schema it was built from; src/schema.ts
// falls back to compiling at run time when the hash does not match.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'dist', 'validators');
mkdirSync(out, { recursive: true });
for (const file of readdirSync(here)
  .filter((f) => f.endsWith('.schema.json'))
  .sort()) {
  const text = readFileSync(path.join(here, file), 'utf8');
  const ajv = new Ajv2020({ allErrors: true, strict: false, code: { source: true } });
  addFormats.default(ajv);
  const validate = ajv.compile(JSON.parse(text));
  const hash = createHash('sha256').update(text).digest('hex');
  const code = `${standaloneCode.default(ajv, validate)}\nmodule.exports.schemaHash = ${JSON.stringify(hash)};\n`;
  writeFileSync(path.join(out, file.replace(/\.schema\.json$/, '.cjs')), code);
}
