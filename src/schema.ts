/**
 * JSON Schema validation with ajv (2020-12). The build precompiles every schema into a
 * standalone validator (schemas/build-validators.mjs → dist/validators/<name>.cjs), so a command
 * neither imports ajv nor compiles a schema at start-up — ~80 ms on the pre-commit path. When no
 * current precompiled validator exists (sources run by vitest, a schema edited since the build),
 * the schema is compiled here, lazily, once per process.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { packageFile } from './package-root.js';

export type SchemaName =
  | 'finding-registry'
  | 'finding-artifact'
  | 'constraint-index'
  | 'constraint-index-extended'
  | 'review-event'
  | 'task'
  | 'roles'
  | 'config'
  | 'candidate'
  | 'measurement'
  | 'sources';

let ajv: Ajv2020 | null = null;
const compiled = new Map<SchemaName, ValidateFunction>();
const requireCjs = createRequire(import.meta.url);

function instance(): Ajv2020 {
  if (!ajv) {
    // Loaded only on the fallback path.
    const { Ajv2020: AjvClass } = requireCjs('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const addFormats = requireCjs('ajv-formats') as { default: (a: Ajv2020) => void };
    ajv = new AjvClass({ allErrors: true, strict: false });
    addFormats.default(ajv);
  }
  return ajv;
}

function precompiled(name: SchemaName, schemaText: string): ValidateFunction | null {
  try {
    const v = requireCjs(packageFile('dist', 'validators', `${name}.cjs`)) as ValidateFunction & { schemaHash?: string };
    const hash = createHash('sha256').update(schemaText).digest('hex');
    return v.schemaHash === hash ? v : null;
  } catch {
    return null;
  }
}

/** The validator for `schemas/<name>.schema.json`. */
export function validator(name: SchemaName): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    const text = readFileSync(packageFile('schemas', `${name}.schema.json`), 'utf8');
    v = precompiled(name, text) ?? instance().compile(JSON.parse(text) as object);
    compiled.set(name, v);
  }
  return v;
}

/** Validates a value; returns human-readable problems (empty when valid). */
export function validate(name: SchemaName, value: unknown): string[] {
  const v = validator(name);
  if (v(value)) return [];
  return describeErrors(v.errors ?? []);
}

function fieldOf(e: ErrorObject): string {
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    return base ? `${base}.${missing}` : missing;
  }
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    return base ? `${base}.${extra}` : extra;
  }
  return base || '(root)';
}

function describe(e: ErrorObject): string {
  const field = fieldOf(e);
  switch (e.keyword) {
    case 'required':
      return `missing required field "${field}"`;
    case 'additionalProperties':
      return `unknown field "${field}"`;
    case 'enum':
      return `field "${field}" must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `field "${field}" must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    default:
      return `field "${field}" ${e.message ?? 'is invalid'}`;
  }
}

/** Turns ajv errors into messages that name the field; drops the noise of `if`/`allOf` wrappers. */
export function describeErrors(errors: readonly ErrorObject[]): string[] {
  const out: string[] = [];
  // Sibling array items failing the same enum are reported once: `"applicable_when.0", "applicable_when.1" must be one of …`.
  const enumFields = new Map<string, string[]>();
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'allOf' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    if (e.keyword === 'enum') {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ');
      const fields = enumFields.get(allowed);
      if (fields) {
        if (!fields.includes(fieldOf(e))) fields.push(fieldOf(e));
        continue;
      }
      enumFields.set(allowed, [fieldOf(e)]);
      out.push(`\0enum\0${allowed}`);
      continue;
    }
    const msg = describe(e);
    if (!out.includes(msg)) out.push(msg);
  }
  const rendered = out.map((m) => {
    if (!m.startsWith('\0enum\0')) return m;
    const allowed = m.slice('\0enum\0'.length);
    const fields = enumFields.get(allowed) ?? [];
    return `${fields.length === 1 ? 'field' : 'fields'} ${fields.map((f) => `"${f}"`).join(', ')} must be one of ${allowed}`;
  });
  return rendered.length > 0 ? rendered : ['does not match the schema'];
}
