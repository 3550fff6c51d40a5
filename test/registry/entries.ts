/** Test helpers: valid registry entries and registry files in temp repositories. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES } from '../helpers/repo.js';
import { stableLine } from '../../src/json-stable.js';
import { REGISTRY_KEY_ORDER, type RegistryEntry } from '../../src/types.js';
import { normalizeDedupKey } from '../../src/registry/normalize.js';

export const REGISTRY = '.agents/findings/registry.jsonl';

export function fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, 'registry', name), 'utf8');
}

export const contractExample = (): RegistryEntry => JSON.parse(fixture('contract-example.json')) as RegistryEntry;

/** A complete, valid entry; `dedup_key` follows the pattern unless overridden. */
export function entry(overrides: Partial<RegistryEntry> = {}): RegistryEntry {
  const base: RegistryEntry = {
    id: 'f-2026-05-01-001',
    version: 1,
    tier: 'local',
    source: { repo: 'example/repo', session: 's1', file: 'reviews/r1.md', skill: 'review' },
    date: '2026-05-01',
    severity: 'high',
    category: 'test-gap',
    pattern: 'Parsers ship without malformed input tests',
    detection_question: 'Is there a malformed-input test?',
    checklist_item: 'Add a malformed-input test.',
    applicable_languages: ['typescript'],
    applicable_when: ['test-gap'],
    status: 'active',
    superseded_by: null,
    dedup_key: '',
    hit_count: 0,
    last_cited: null,
    ttl_days: 30,
    confidence: 'high',
  };
  const e = { ...base, ...overrides };
  if (overrides.dedup_key === undefined) e.dedup_key = normalizeDedupKey(e.category, e.pattern, e.applicable_when);
  return e;
}

export const line = (e: unknown): string => stableLine(e, REGISTRY_KEY_ORDER);
export const jsonl = (...lines: unknown[]): string => `${lines.map((l) => (typeof l === 'string' ? l : line(l))).join('\n')}\n`;
