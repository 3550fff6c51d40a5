import { describe, expect, it } from 'vitest';
import { checkArtifact } from '../../compiler/model.js';
import { readFrontMatter } from '../../src/frontmatter.js';

const artifact = (targets: string) => `---
id: "f-1"
type: "finding"
date: "2026-01-01"
source_skill: "review"
source_artifact: "x.md"
title: "t"
summary: "s"
pattern: "p"
detection_question: "q"
checklist_item: "c"
severity: "high"
detectability: "mechanical"
status: "active"
compiler_targets: ${targets}
scope_tags: ["test-gap"]
dedup_key: "test-gap|p|test-gap"
applicable_when: ["test-gap"]
applicable_languages: ["ts"]
compiler:
  detector:
    kind: regex
    pattern: "x"
---
body
`;

describe('artifact messages', () => {
  it('says what a mechanical finding without the constraint target needs, at the field', () => {
    const r = checkArtifact(
      '.agents/findings/f-1.md',
      readFrontMatter(Buffer.from(artifact('["plan", "pre-mortem"]')), '.agents/findings/f-1.md'),
    );
    expect(r.ok).toBe(false);
    const messages = r.ok ? [] : r.diagnostics.map((d) => [d.line, d.message]);
    expect(messages).toEqual([[15, expect.stringContaining('field "compiler_targets" must include "constraint"')]]);
  });
});
