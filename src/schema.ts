/** JSON Schema validation with ajv (2020-12). Schemas are compiled lazily, once per process. */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { packageFile } from './package-root.js';

export type SchemaName = 'finding-registry' | 'finding-artifact' | 'constraint-index' | 'review-event' | 'task' | 'roles' | 'config' | 'candidate' | 'measurement' | 'sources';

let ajv: Ajv2020 | null = null;
const compiled = new Map<SchemaName, ValidateFunction>();

function instance(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormatsModule.default(ajv);
  }
  return ajv;
}

/** The compiled validator for `schemas/<name>.schema.json`. */
export function validator(name: SchemaName): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    const schema = JSON.parse(readFileSync(packageFile('schemas', `${name}.schema.json`), 'utf8')) as object;
    v = instance().compile(schema);
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
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'allOf' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const msg = describe(e);
    if (!out.includes(msg)) out.push(msg);
  }
  return out.length > 0 ? out : ['does not match the schema'];
}
