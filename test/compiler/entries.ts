/** A registry line for compiler tests: a valid active entry, with fields overridable. */
export const REG = (id: string, extra: Record<string, unknown> = {}): string =>
  `${JSON.stringify({
    id, version: 1, tier: 'local', source: { repo: 'r', session: 's', file: 'f.md', skill: 'k' }, date: '2026-01-01', severity: 'significant', category: 'test-gap',
    pattern: `Pattern ${id}`, detection_question: 'Q?', checklist_item: 'Do.', applicable_languages: ['ts'], applicable_when: ['test-gap'], status: 'active',
    superseded_by: null, dedup_key: `test-gap|pattern-${id}|test-gap`, hit_count: 0, last_cited: null, ttl_days: 30, confidence: 'high', ...extra,
  })}\n`;
