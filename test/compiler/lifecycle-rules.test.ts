import { describe, expect, it } from 'vitest';
import { qualifiedEntry } from '../../compiler/constraints.js';
import { constraint } from '../hooks/setup.js';

const measured = {
  samples: 30,
  hits: 20,
  labelled: 20,
  true_positives: 20,
  false_positives: 0,
  precision: 1,
  evidence_ref: '.agents/constraints/measurements/x.json',
};

describe('qualifiedEntry', () => {
  const active = constraint('x', { status: 'active', globs: ['src/**/*.ts'] });
  const previous = {
    ...active,
    evidence: {
      ...active.evidence,
      precision_evidence_ref: measured.evidence_ref,
      shadow_samples: 20,
      true_positives: 20,
      false_positives: 0,
    },
  };
  const fresh = constraint('x', { status: 'shadow', globs: ['src/**/*.ts'] });

  it('keeps an active entry active while its detector and applicability are unchanged', () => {
    expect(qualifiedEntry(fresh, previous)).toMatchObject({
      status: 'active',
      enforcement_mode: 'block',
      evidence: { precision_evidence_ref: measured.evidence_ref },
    });
  });
  it('returns it to shadow when its globs change: the measurement does not cover the new files', () => {
    const widened = constraint('x', { status: 'shadow', globs: ['**/*.ts'] });
    const r = qualifiedEntry(widened, previous);
    expect(r).toMatchObject({ status: 'shadow', enforcement_mode: 'warn' });
    expect(r.evidence.precision_evidence_ref).toBeUndefined();
  });
});
