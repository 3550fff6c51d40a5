import { describe, expect, it } from 'vitest';
import { normalizeDedupKey, patternSlug } from '../../src/registry/normalize.js';

describe('normalizeDedupKey', () => {
  const table: [string, string, string[], string][] = [
    // The contract's own example (docs/contracts/registry.md#canonical-normalization).
    [
      'validation-gap',
      'Prior finding injection was skipped in planning',
      ['plan-shape', 'validation-gap'],
      'validation-gap|prior-finding-injection-was-skipped-in-planning|plan-shape',
    ],
    // From the agentops registry: punctuation inside words disappears.
    [
      'validation-gap',
      'Production command refactors can miss the paired test diff expected by the command/test-pairing gate.',
      ['validation-gap', 'test-gap'],
      'validation-gap|production-command-refactors-can-miss-the-paired-test-diff-expected-by-the-commandtestpairing-gate|validation-gap',
    ],
    ['test-gap', '  Many   spaces\tand\nnewlines  ', ['test-gap'], 'test-gap|many-spaces-and-newlines|test-gap'],
    ['docs-drift', 'UPPER case, "quotes" & symbols!', ['docs-drift'], 'docs-drift|upper-case-quotes-symbols|docs-drift'],
    ['classifier', 'Ünïcödé wörds stay', ['classifier'], 'classifier|ünïcödé-wörds-stay|classifier'],
  ];
  it.each(table)('%s / %s', (category, pattern, when, expected) => {
    expect(normalizeDedupKey(category, pattern, when)).toBe(expected);
  });
  it('collapses a pattern of only punctuation to an empty slug', () => {
    expect(patternSlug('!!! ...')).toBe('');
  });
});
