/** Role emails compare case-insensitively (and ignoring surrounding spaces), as mail systems do. */
import { describe, expect, it } from 'vitest';
import { holdsRole } from '../../src/review/roles.js';

describe('holdsRole', () => {
  const roles = { auditor: ['Aud@Example.IO'], ceo: [' boss@example.io '] };
  it.each([
    ['aud@example.io', 'auditor', true],
    ['AUD@EXAMPLE.IO', 'auditor', true],
    ['Boss@Example.io', 'ceo', true],
    ['aud@example.io', 'ceo', false],
    ['other@example.io', 'auditor', false],
  ] as const)('%s holds %s: %s', (email, role, expected) => {
    expect(holdsRole(roles, role, email)).toBe(expected);
  });
  it('no identity holds no role', () => {
    expect(holdsRole(roles, 'auditor', null)).toBe(false);
  });
});
