/**
 * The rule table: every rule id findings-compiler emits, with its default severity, a one-line
 * summary and its anchor in docs/rules.md (the habit of ESLint's `meta.docs.url` and
 * markdownlint's rule list). A leaf module (no imports), so the output formatters can look an id
 * up without loading any area. Ids are `<area>/<rule>`, one prefix per area; `aliases` are
 * earlier spellings of the same rule, so a reader holding an old id still finds its entry.
 * `constraint/<id>` is a family: one rule per constraint of the index.
 * test/rules.test.ts fails when the sources emit an id this table or docs/rules.md lacks.
 */

export type RuleSeverity = 'error' | 'warning' | 'info';

export interface RuleInfo {
  /** `<area>/<rule>`; a family is written `<area>/<placeholder>` with `family` set. */
  readonly id: string;
  /** The severity it is reported with by default (some callers raise or lower it). */
  readonly severity: RuleSeverity;
  readonly summary: string;
  /** The anchor of its entry in docs/rules.md. */
  readonly anchor: string;
  /** Earlier ids of the same rule. */
  readonly aliases?: readonly string[];
  /** A family: every id starting with this prefix is this rule. */
  readonly family?: string;
}

/**
 * Where docs/rules.md is published. SARIF requires `helpUri` to be an absolute URI (its schema
 * says `format: uri`), so a path relative to the repository would make the log invalid; the
 * package has no published home yet (package.json names no repository), so this is a placeholder
 * to change in one place when it has one.
 */
export const RULES_DOC_URL = 'https://github.com/findings-compiler/findings-compiler/blob/main/docs/rules.md';

export const RULES: readonly RuleInfo[] = [
  {
    id: 'artifact/ambiguous-fence',
    severity: 'error',
    summary: 'A line starting with "---" inside front matter is neither content nor the closing fence.',
    anchor: 'artifact-ambiguous-fence',
  },
  { id: 'artifact/binary', severity: 'error', summary: 'A finding artifact is not UTF-8 text.', anchor: 'artifact-binary' },
  {
    id: 'artifact/duplicate-dedup-key',
    severity: 'error',
    summary: 'Two finding artifacts share a dedup_key.',
    anchor: 'artifact-duplicate-dedup-key',
  },
  { id: 'artifact/duplicate-id', severity: 'error', summary: 'Two finding artifacts share an id.', anchor: 'artifact-duplicate-id' },
  {
    id: 'artifact/front-matter-language',
    severity: 'error',
    summary: 'The front matter fence names a language (`---js`, `---toml`); only plain YAML is read.',
    anchor: 'artifact-front-matter-language',
  },
  {
    id: 'artifact/hostile-key',
    severity: 'error',
    summary: 'A front matter key could reach an object prototype (`__proto__`, `constructor`).',
    anchor: 'artifact-hostile-key',
  },
  {
    id: 'artifact/id-mismatch',
    severity: 'error',
    summary: "The artifact's file name and its front matter id differ.",
    anchor: 'artifact-id-mismatch',
  },
  {
    id: 'artifact/no-front-matter',
    severity: 'error',
    summary: 'The artifact does not start with a YAML front matter block.',
    anchor: 'artifact-no-front-matter',
  },
  {
    id: 'artifact/schema',
    severity: 'error',
    summary: 'The front matter does not match the finding artifact schema.',
    anchor: 'artifact-schema',
  },
  {
    id: 'artifact/superseded-by',
    severity: 'error',
    summary: 'superseded_by names the finding itself or an unknown finding.',
    anchor: 'artifact-superseded-by',
  },
  {
    id: 'artifact/too-large',
    severity: 'error',
    summary: 'The artifact is over the size limit and is refused unparsed.',
    anchor: 'artifact-too-large',
  },
  {
    id: 'artifact/unclosed-front-matter',
    severity: 'error',
    summary: 'The front matter block is never closed with "---".',
    anchor: 'artifact-unclosed-front-matter',
  },
  {
    id: 'artifact/unsafe-id',
    severity: 'error',
    summary: 'The artifact id cannot be used as a portable file name.',
    anchor: 'artifact-unsafe-id',
  },
  {
    id: 'artifact/yaml',
    severity: 'error',
    summary: 'The front matter is invalid or refused YAML (tags, too many aliases, not a mapping).',
    anchor: 'artifact-yaml',
  },
  {
    id: 'compiler/active-unqualified',
    severity: 'error',
    summary: 'An active constraint no longer qualifies (its detector or fixtures changed).',
    anchor: 'compiler-active-unqualified',
  },
  {
    id: 'compiler/applies-to',
    severity: 'error',
    summary: "A finding's compiler.applies_to is invalid, or one of its globs can never match.",
    anchor: 'compiler-applies-to',
  },
  {
    id: 'compiler/detector',
    severity: 'warning',
    summary: "A finding's detector pattern does not compile on the linear-time engine.",
    anchor: 'compiler-detector',
  },
  {
    id: 'compiler/drift',
    severity: 'error',
    summary: 'Compiled output (index, rules, checks) is missing or older than its sources.',
    anchor: 'compiler-drift',
    aliases: ['compile/drift'],
  },
  {
    id: 'compiler/duplicate-id',
    severity: 'warning',
    summary: 'Two sources promote a finding with the same id; the first is kept.',
    anchor: 'compiler-duplicate-id',
  },
  {
    id: 'compiler/fixture-missing',
    severity: 'warning',
    summary: 'A fixture the finding names does not exist.',
    anchor: 'compiler-fixture-missing',
  },
  {
    id: 'compiler/fixture-ref',
    severity: 'error',
    summary: 'A fixture reference is unsafe or points outside the fixtures folder.',
    anchor: 'compiler-fixture-ref',
  },
  {
    id: 'compiler/index-unreadable',
    severity: 'error',
    summary: 'The existing constraint index is invalid, so compile does not rewrite it.',
    anchor: 'compiler-index-unreadable',
  },
  {
    id: 'compiler/lifecycle',
    severity: 'warning',
    summary: "The registry marks a finding's lifecycle in a way the artifact does not follow.",
    anchor: 'compiler-lifecycle',
  },
  {
    id: 'compiler/no-detector',
    severity: 'warning',
    summary: 'A mechanical finding has no compiler.detector, so no constraint is made.',
    anchor: 'compiler-no-detector',
  },
  {
    id: 'compiler/no-fixtures',
    severity: 'warning',
    summary: 'Replay needs at least one positive and one negative-control fixture.',
    anchor: 'compiler-no-fixtures',
  },
  {
    id: 'compiler/not-enforced',
    severity: 'warning',
    summary: 'The detector kind is not enforced by this compiler.',
    anchor: 'compiler-not-enforced',
  },
  {
    id: 'compiler/not-mechanical',
    severity: 'warning',
    summary: 'The finding is not mechanical, so it compiles to a planning rule only.',
    anchor: 'compiler-not-mechanical',
  },
  {
    id: 'compiler/output-outside-root',
    severity: 'error',
    summary: 'A compiled output path resolves outside the repository; nothing is written.',
    anchor: 'compiler-output-outside-root',
  },
  {
    id: 'compiler/replay',
    severity: 'warning',
    summary: 'Replaying the detector on its fixtures did not give the expected hits.',
    anchor: 'compiler-replay',
  },
  {
    id: 'compiler/too-large',
    severity: 'warning',
    summary: 'A compiled output or source is over the size limit and is skipped.',
    anchor: 'compiler-too-large',
  },
  {
    id: 'compiler/unsafe-id',
    severity: 'warning',
    summary: 'A finding id cannot be used as a portable file name; it is not compiled.',
    anchor: 'compiler-unsafe-id',
  },
  {
    id: 'compiler/unsafe-pattern',
    severity: 'warning',
    summary: 'The detector pattern is refused as unsafe (nested quantifiers, lookaround, backreferences).',
    anchor: 'compiler-unsafe-pattern',
  },
  {
    id: 'config/invalid-json',
    severity: 'error',
    summary: '.agents/config.json is not valid JSON; every setting takes its default.',
    anchor: 'config-invalid-json',
  },
  {
    id: 'config/invalid-setting',
    severity: 'error',
    summary: 'A setting in .agents/config.json has the wrong type or range (schemas/config.schema.json); its default is used.',
    anchor: 'config-invalid-setting',
  },
  {
    id: 'config/not-object',
    severity: 'error',
    summary: '.agents/config.json is not a JSON object; every setting takes its default.',
    anchor: 'config-not-object',
  },
  {
    id: 'config/unknown-key',
    severity: 'error',
    summary: '.agents/config.json names a setting that does not exist (with a did-you-mean); it is ignored.',
    anchor: 'config-unknown-key',
  },
  {
    id: 'constraint/<id>',
    severity: 'error',
    summary: 'A constraint of the index matched (or could not be evaluated); one rule per constraint id.',
    anchor: 'constraint-id',
    family: 'constraint/',
  },
  {
    id: 'constraint-index/duplicate-id',
    severity: 'error',
    summary: 'Two constraint index entries share an id.',
    anchor: 'constraint-index-duplicate-id',
    aliases: ['index/duplicate-id'],
  },
  {
    id: 'constraint-index/enforcement',
    severity: 'error',
    summary: "An entry's enforcement_mode does not follow its status.",
    anchor: 'constraint-index-enforcement',
    aliases: ['index/enforcement'],
  },
  {
    id: 'constraint-index/id',
    severity: 'error',
    summary: 'A constraint id is not its finding id.',
    anchor: 'constraint-index-id',
    aliases: ['index/id'],
  },
  {
    id: 'constraint-index/path-globs',
    severity: 'error',
    summary: 'A path glob can never match (empty, or starting or ending with `/`), or an active entry has no path_globs.',
    anchor: 'constraint-index-path-globs',
    aliases: ['index/path-globs'],
  },
  {
    id: 'constraint-index/invalid-json',
    severity: 'error',
    summary: 'The constraint index is not valid JSON.',
    anchor: 'constraint-index-invalid-json',
    aliases: ['index/invalid-json'],
  },
  {
    id: 'constraint-index/schema',
    severity: 'error',
    summary: 'The constraint index does not match its schema.',
    anchor: 'constraint-index-schema',
    aliases: ['index/schema'],
  },
  {
    id: 'constraint-index/not-portable',
    severity: 'warning',
    summary:
      "An index.json entry upstream's gate cannot take as it is (a glob shape it rejects, a multi-line pattern, " +
      'another detector kind); it belongs in extended.json.',
    anchor: 'constraint-index-not-portable',
  },
  {
    id: 'doctor/bin-missing',
    severity: 'error',
    summary: 'The hook calls a findings bin that is not installed.',
    anchor: 'doctor-bin-missing',
  },
  { id: 'doctor/drift', severity: 'error', summary: 'Compiled output is older than its sources.', anchor: 'doctor-drift' },
  {
    id: 'doctor/gitattributes',
    severity: 'warning',
    summary: 'The .gitattributes lines for the ledgers (merge=union) are missing.',
    anchor: 'doctor-gitattributes',
  },
  { id: 'doctor/hook-hidden', severity: 'error', summary: 'Another hook manager hides the installed hook.', anchor: 'doctor-hook-hidden' },
  { id: 'doctor/hook-missing', severity: 'error', summary: 'A findings hook is not installed.', anchor: 'doctor-hook-missing' },
  {
    id: 'doctor/hook-not-executable',
    severity: 'error',
    summary: 'An installed hook file is not executable.',
    anchor: 'doctor-hook-not-executable',
  },
  {
    id: 'doctor/hooks-path',
    severity: 'error',
    summary: 'core.hooksPath points somewhere the findings hooks are not.',
    anchor: 'doctor-hooks-path',
  },
  {
    id: 'doctor/husky-disabled',
    severity: 'warning',
    summary: 'HUSKY=0 disables the hooks in this environment.',
    anchor: 'doctor-husky-disabled',
  },
  {
    id: 'explain/ambiguous-id',
    severity: 'error',
    summary: 'The id given to explain matches more than one thing.',
    anchor: 'explain-ambiguous-id',
  },
  {
    id: 'explain/candidate',
    severity: 'warning',
    summary: 'A candidates.jsonl line cannot be read; it is ignored.',
    anchor: 'explain-candidate',
  },
  {
    id: 'explain/missing-evidence',
    severity: 'warning',
    summary: 'A candidate names evidence that is not found.',
    anchor: 'explain-missing-evidence',
  },
  {
    id: 'explain/unknown-id',
    severity: 'error',
    summary: 'Nothing (constraint, finding, candidate, review finding) has the given id.',
    anchor: 'explain-unknown-id',
  },
  {
    id: 'gate/binary-skipped',
    severity: 'warning',
    summary: 'A binary file was not checked although active constraints apply to it.',
    anchor: 'gate-binary-skipped',
  },
  {
    id: 'gate/skip-unknown',
    severity: 'warning',
    summary: 'FINDINGS_SKIP names a constraint the index does not have.',
    anchor: 'gate-skip-unknown',
  },
  {
    id: 'import/unknown-shape',
    severity: 'error',
    summary: 'The export holds no review comment, thread or discussion of the forge imported; nothing was imported.',
    anchor: 'import-unknown-shape',
  },
  {
    id: 'import/unreadable',
    severity: 'error',
    summary: 'The export is not JSON, is cut short, holds an object too large, or is a GraphQL error; nothing was imported.',
    anchor: 'import-unreadable',
  },
  {
    id: 'lifecycle/active-below-precision',
    severity: 'warning',
    summary: "An active constraint's labelled precision fell below the threshold.",
    anchor: 'lifecycle-active-below-precision',
  },
  {
    id: 'lifecycle/baseline-evaluation-error',
    severity: 'warning',
    summary: 'A file could not be evaluated while recording a baseline; nothing was recorded for it.',
    anchor: 'lifecycle-baseline-evaluation-error',
  },
  {
    id: 'lifecycle/baseline-invalid',
    severity: 'warning',
    summary: 'A baseline file cannot be read; every hit of its constraint counts.',
    anchor: 'lifecycle-baseline-invalid',
  },
  {
    id: 'lifecycle/no-baseline',
    severity: 'error',
    summary: 'There is no baseline to prune; record one with `findings constraint baseline <id>`.',
    anchor: 'lifecycle-no-baseline',
  },
  {
    id: 'lifecycle/no-head',
    severity: 'error',
    summary: 'There is no commit yet, so there is no tree to baseline.',
    anchor: 'lifecycle-no-head',
  },
  { id: 'lifecycle/bad-label-line', severity: 'error', summary: 'A label file line cannot be read.', anchor: 'lifecycle-bad-label-line' },
  {
    id: 'lifecycle/current-evaluation-error',
    severity: 'error',
    summary: 'The constraint cannot be evaluated on the current tree, so it cannot be activated.',
    anchor: 'lifecycle-current-evaluation-error',
  },
  {
    id: 'lifecycle/current-violations',
    severity: 'error',
    summary: 'The constraint still has violations in the current tree, so it cannot be activated.',
    anchor: 'lifecycle-current-violations',
  },
  {
    id: 'lifecycle/labels-dropped',
    severity: 'warning',
    summary: 'Labels of the previous measurement no longer match a hit and were dropped.',
    anchor: 'lifecycle-labels-dropped',
  },
  {
    id: 'lifecycle/low-precision',
    severity: 'error',
    summary: 'Labelled precision is below the threshold, so the constraint cannot be activated.',
    anchor: 'lifecycle-low-precision',
  },
  {
    id: 'lifecycle/no-index',
    severity: 'error',
    summary: 'There is no constraint index; run compile first.',
    anchor: 'lifecycle-no-index',
  },
  {
    id: 'lifecycle/no-measurement',
    severity: 'error',
    summary: 'The constraint has no measurement; run `constraint measure` first.',
    anchor: 'lifecycle-no-measurement',
  },
  { id: 'lifecycle/not-active', severity: 'error', summary: 'Only an active constraint can be retired.', anchor: 'lifecycle-not-active' },
  { id: 'lifecycle/not-shadow', severity: 'error', summary: 'Only a shadow constraint can be activated.', anchor: 'lifecycle-not-shadow' },
  { id: 'lifecycle/retired', severity: 'error', summary: 'A retired constraint is not measured.', anchor: 'lifecycle-retired' },
  {
    id: 'lifecycle/stale-measurement',
    severity: 'error',
    summary: 'The detector or applies_to changed since the measurement.',
    anchor: 'lifecycle-stale-measurement',
  },
  {
    id: 'lifecycle/too-few-labels',
    severity: 'error',
    summary: 'Fewer labelled hits than the threshold requires.',
    anchor: 'lifecycle-too-few-labels',
  },
  {
    id: 'lifecycle/unknown-constraint',
    severity: 'error',
    summary: 'No constraint has the given id.',
    anchor: 'lifecycle-unknown-constraint',
  },
  {
    id: 'lifecycle/unknown-hit',
    severity: 'error',
    summary: 'No hit of the measurement has the given id.',
    anchor: 'lifecycle-unknown-hit',
  },
  {
    id: 'lifecycle/unusable-detector',
    severity: 'error',
    summary: "The constraint's detector cannot be prepared on the matching engine.",
    anchor: 'lifecycle-unusable-detector',
  },
  {
    id: 'measurement/invalid-json',
    severity: 'error',
    summary: 'A measurement file is not valid JSON.',
    anchor: 'measurement-invalid-json',
  },
  { id: 'measurement/schema', severity: 'error', summary: 'A measurement file does not match its schema.', anchor: 'measurement-schema' },
  {
    id: 'measurement/wrong-id',
    severity: 'error',
    summary: "A measurement's constraint_id differs from its file name.",
    anchor: 'measurement-wrong-id',
  },
  {
    id: 'pull/artifact-id',
    severity: 'warning',
    summary: "A pulled artifact's front matter id differs from its file name; not copied.",
    anchor: 'pull-artifact-id',
  },
  {
    id: 'pull/artifact-schema',
    severity: 'warning',
    summary: 'A pulled artifact does not match the artifact schema; not copied.',
    anchor: 'pull-artifact-schema',
  },
  { id: 'pull/artifact-tier', severity: 'warning', summary: "A pulled artifact's tier cannot be set.", anchor: 'pull-artifact-tier' },
  { id: 'pull/bad-ref', severity: 'error', summary: 'The source has no such ref; nothing changed.', anchor: 'pull-bad-ref' },
  {
    id: 'pull/duplicate-in-source',
    severity: 'warning',
    summary: 'The source registry repeats an id; the first is taken.',
    anchor: 'pull-duplicate-in-source',
  },
  {
    id: 'pull/fixture-missing',
    severity: 'warning',
    summary: 'A fixture a pulled finding names is not in the source.',
    anchor: 'pull-fixture-missing',
  },
  {
    id: 'pull/fixture-path',
    severity: 'warning',
    summary: 'A pulled fixture reference is unsafe; not copied.',
    anchor: 'pull-fixture-path',
  },
  {
    id: 'pull/id-conflict',
    severity: 'warning',
    summary: 'A pulled id already names a different local finding; the local one is kept.',
    anchor: 'pull-id-conflict',
  },
  { id: 'pull/kept-existing', severity: 'info', summary: 'A local finding was kept over the pulled one.', anchor: 'pull-kept-existing' },
  {
    id: 'pull/kept-local-file',
    severity: 'info',
    summary: 'A local file that differs from the source was kept.',
    anchor: 'pull-kept-local-file',
  },
  { id: 'pull/missing', severity: 'error', summary: 'The source path cannot be read; nothing changed.', anchor: 'pull-missing' },
  {
    id: 'pull/no-registry',
    severity: 'error',
    summary: 'The source has no registry at the fetched commit; nothing changed.',
    anchor: 'pull-no-registry',
  },
  {
    id: 'pull/not-a-repository',
    severity: 'error',
    summary: 'The source is not a git repository; nothing changed.',
    anchor: 'pull-not-a-repository',
  },
  { id: 'pull/not-recorded', severity: 'error', summary: 'The source is not recorded in sources.json.', anchor: 'pull-not-recorded' },
  {
    id: 'pull/source-line',
    severity: 'warning',
    summary: 'A source registry line cannot be read; it is skipped.',
    anchor: 'pull-source-line',
  },
  { id: 'pull/source-moved', severity: 'error', summary: 'The recorded source now resolves elsewhere.', anchor: 'pull-source-moved' },
  {
    id: 'pull/source-rejected',
    severity: 'error',
    summary: 'The source registry has malformed lines; nothing changed.',
    anchor: 'pull-source-rejected',
  },
  {
    id: 'pull/source-yaml-block',
    severity: 'warning',
    summary: 'The source registry starts with a YAML block; those lines are skipped.',
    anchor: 'pull-source-yaml-block',
  },
  { id: 'pull/unreachable', severity: 'error', summary: 'The source cannot be fetched; nothing changed.', anchor: 'pull-unreachable' },
  {
    id: 'pull/unsafe-id',
    severity: 'warning',
    summary: 'A pulled id cannot be used as a portable file name; skipped.',
    anchor: 'pull-unsafe-id',
  },
  {
    id: 'pull/unsafe-path',
    severity: 'warning',
    summary: 'A pulled file would land outside its folder; not copied.',
    anchor: 'pull-unsafe-path',
  },
  {
    id: 'recur/duplicate-class',
    severity: 'error',
    summary: 'Two lines of candidates.jsonl share a class_key.',
    anchor: 'recur-duplicate-class',
    aliases: ['candidates/duplicate-class'],
  },
  {
    id: 'recur/invalid-candidate',
    severity: 'error',
    summary: 'A candidates.jsonl line cannot be read.',
    anchor: 'recur-invalid-candidate',
    aliases: ['candidates/invalid'],
  },
  { id: 'recur/unknown-class', severity: 'error', summary: 'No candidate has the given class key.', anchor: 'recur-unknown-class' },
  {
    id: 'registry/appended-update',
    severity: 'warning',
    summary: 'A later registry line repeats an id with the same finding (the later line wins).',
    anchor: 'registry-appended-update',
  },
  {
    id: 'registry/case-clash',
    severity: 'error',
    summary: 'Two ids differ only in letter case (they clash as file names).',
    anchor: 'registry-case-clash',
  },
  {
    id: 'registry/dedup-key-mismatch',
    severity: 'warning',
    summary: "A dedup_key's category does not match the finding's category.",
    anchor: 'registry-dedup-key-mismatch',
  },
  {
    id: 'registry/dedup-key-shape',
    severity: 'warning',
    summary: 'A dedup_key does not have the documented shape.',
    anchor: 'registry-dedup-key-shape',
  },
  {
    id: 'registry/duplicate-dedup-key',
    severity: 'error',
    summary: 'Two findings share a dedup_key.',
    anchor: 'registry-duplicate-dedup-key',
  },
  {
    id: 'registry/duplicate-id',
    severity: 'error',
    summary: 'A registry id is repeated with a different finding.',
    anchor: 'registry-duplicate-id',
  },
  { id: 'registry/empty-input', severity: 'error', summary: '`add` received no entries.', anchor: 'registry-empty-input' },
  { id: 'registry/invalid-json', severity: 'error', summary: 'A registry line is not valid JSON.', anchor: 'registry-invalid-json' },
  {
    id: 'registry/kept-line',
    severity: 'warning',
    summary: 'A registry line that cannot be read is kept unchanged by a writer.',
    anchor: 'registry-kept-line',
  },
  { id: 'registry/schema', severity: 'error', summary: 'A registry line does not match the registry schema.', anchor: 'registry-schema' },
  {
    id: 'registry/superseded-by',
    severity: 'error',
    summary: 'superseded_by names the finding itself or an unknown id.',
    anchor: 'registry-superseded-by',
  },
  { id: 'registry/unknown-id', severity: 'error', summary: 'No finding has the given id.', anchor: 'registry-unknown-id' },
  {
    id: 'registry/unreadable',
    severity: 'warning',
    summary: 'The registry cannot be read; commands continue without findings.',
    anchor: 'registry-unreadable',
  },
  { id: 'registry/unsafe-id', severity: 'error', summary: 'An id cannot be used as a portable file name.', anchor: 'registry-unsafe-id' },
  {
    id: 'registry/yaml-block',
    severity: 'error',
    summary: 'The registry starts with a YAML block; those lines are ignored.',
    anchor: 'registry-yaml-block',
  },
  {
    id: 'review/duplicate-event-id',
    severity: 'error',
    summary: 'Two ledger events share an id with different content.',
    anchor: 'review-duplicate-event-id',
  },
  {
    id: 'review/duplicate-finding',
    severity: 'error',
    summary: 'A finding is filed twice in the ledger.',
    anchor: 'review-duplicate-finding',
  },
  {
    id: 'review/findings-invalid-json',
    severity: 'error',
    summary: 'The findings file given to `review file` is not valid JSON.',
    anchor: 'review-findings-invalid-json',
  },
  {
    id: 'review/findings-not-array',
    severity: 'error',
    summary: 'The findings file is not a JSON array.',
    anchor: 'review-findings-not-array',
  },
  {
    id: 'review/illegal-transition',
    severity: 'error',
    summary: "A ledger event changes a finding's state in a way that is not allowed.",
    anchor: 'review-illegal-transition',
  },
  {
    id: 'review/invalid-finding',
    severity: 'error',
    summary: 'A finding to file is missing a field or has a wrong value.',
    anchor: 'review-invalid-finding',
  },
  { id: 'review/invalid-json', severity: 'error', summary: 'A ledger line is not valid JSON.', anchor: 'review-invalid-json' },
  { id: 'review/invalid-reason', severity: 'error', summary: 'The reason given is not a valid finding.', anchor: 'review-invalid-reason' },
  {
    id: 'review/ledger-rewritten',
    severity: 'error',
    summary: 'A review ledger was rewritten or deleted; ledgers are append-only.',
    anchor: 'review-ledger-rewritten',
  },
  {
    id: 'review/many-findings',
    severity: 'warning',
    summary: 'Many findings in one call are hard to review.',
    anchor: 'review-many-findings',
  },
  { id: 'review/no-findings', severity: 'error', summary: 'No findings were given to file.', anchor: 'review-no-findings' },
  { id: 'review/open-finding', severity: 'error', summary: 'A task still has open blocking findings.', anchor: 'review-open-finding' },
  {
    id: 'review/role-granted-in-push',
    severity: 'error',
    summary: 'A role used in the push was granted by someone who did not hold it.',
    anchor: 'review-role-granted-in-push',
  },
  {
    id: 'review/role-not-held',
    severity: 'error',
    summary: "An event's author does not hold the role the event needs.",
    anchor: 'review-role-not-held',
  },
  {
    id: 'review/role-self-granted',
    severity: 'warning',
    summary: 'A role was granted in the same commit that uses it.',
    anchor: 'review-role-self-granted',
  },
  {
    id: 'review/roles-invalid-json',
    severity: 'error',
    summary: '.agents/roles.json is not valid JSON.',
    anchor: 'review-roles-invalid-json',
  },
  { id: 'review/roles-schema', severity: 'error', summary: '.agents/roles.json does not match its schema.', anchor: 'review-roles-schema' },
  { id: 'review/schema', severity: 'error', summary: 'A ledger event does not match the review event schema.', anchor: 'review-schema' },
  {
    id: 'review/stale-note',
    severity: 'error',
    summary: 'A rendered review note no longer matches its ledger.',
    anchor: 'review-stale-note',
  },
  {
    id: 'review/task-duplicate-criterion',
    severity: 'error',
    summary: 'A task repeats a criterion id.',
    anchor: 'review-task-duplicate-criterion',
  },
  {
    id: 'review/task-id',
    severity: 'error',
    summary: 'A task id is missing, unsafe or does not match its file name.',
    anchor: 'review-task-id',
  },
  { id: 'review/task-invalid-json', severity: 'error', summary: 'A task file is not valid JSON.', anchor: 'review-task-invalid-json' },
  {
    id: 'review/task-mismatch',
    severity: 'error',
    summary: 'A ledger event names another task than its ledger file.',
    anchor: 'review-task-mismatch',
  },
  { id: 'review/task-schema', severity: 'error', summary: 'A task file does not match its schema.', anchor: 'review-task-schema' },
  {
    id: 'review/too-many-findings',
    severity: 'error',
    summary: 'Too many findings in one call; split them.',
    anchor: 'review-too-many-findings',
  },
  {
    id: 'review/unknown-finding',
    severity: 'error',
    summary: 'A ledger event names a finding the ledger does not have.',
    anchor: 'review-unknown-finding',
  },
  { id: 'sources/duplicate-url', severity: 'error', summary: 'sources.json lists a source twice.', anchor: 'sources-duplicate-url' },
  { id: 'sources/invalid-json', severity: 'error', summary: 'sources.json is not valid JSON.', anchor: 'sources-invalid-json' },
  { id: 'sources/schema', severity: 'error', summary: 'sources.json does not match its schema.', anchor: 'sources-schema' },
  {
    id: 'ttl/bad-date',
    severity: 'warning',
    summary: "A finding's TTL date is not a date; its TTL is not checked.",
    anchor: 'ttl-bad-date',
  },
];

let byId: Map<string, RuleInfo> | undefined;

/** The entry of a rule id: by id, by alias, or by family prefix; undefined when unknown. */
export function findRule(ruleId: string): RuleInfo | undefined {
  if (byId === undefined) {
    byId = new Map();
    for (const r of RULES) for (const id of [r.id, ...(r.aliases ?? [])]) byId.set(id, r);
  }
  return byId.get(ruleId) ?? RULES.find((r) => r.family !== undefined && ruleId.startsWith(r.family) && ruleId.length > r.family.length);
}

/** The documentation URL of a rule id, or undefined for an id the table does not know. */
export function ruleHelpUri(ruleId: string): string | undefined {
  const rule = findRule(ruleId);
  return rule === undefined ? undefined : `${RULES_DOC_URL}#${rule.anchor}`;
}
