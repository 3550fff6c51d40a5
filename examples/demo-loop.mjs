#!/usr/bin/env node
/**
 * `npm run demo`, second half: the whole loop of findings-compiler on a TEMPORARY copy of
 * examples/demo (README "Two commands"; docs/lifecycle.md, docs/review.md, docs/registry.md):
 *
 *   review finding → a second objective with the same defect class → `recur` candidate →
 *   `recur --promote` into the registry → compile → a shadow warning on a commit → measure →
 *   label (--from a label file) → activate → a commit blocked by the real pre-commit hook → explain.
 *
 * Every step runs the real bins through child_process, in a git repository initialised in a temp
 * folder with husky and `findings init`, so the hooks are the ones a user gets. The repository
 * itself is never written. Each step prints a heading and its key output lines, and checks what it
 * must see: any step that does not behave as documented ends the demo with exit 1 (so the demo
 * doubles as an end-to-end check). `--keep` leaves the temp repository in place to look at.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FINDINGS = path.join(PACKAGE_ROOT, 'bin', 'findings.js');
const FINDINGS_COMPILE = path.join(PACKAGE_ROOT, 'bin', 'findings-compile.js');
const keep = process.argv.includes('--keep');

// Git children get no variable of an outer git (the demo may itself run inside a hook), a fixed
// identity and clock, and no colours, so every run prints the same words.
const env = { ...process.env, NO_COLOR: '1', FINDINGS_NOW: '2026-03-01T10:00:00Z' };
for (const k of Object.keys(env)) if (k.startsWith('GIT_') || k === 'HUSKY' || k === 'FINDINGS_SKIP' || k === 'FORCE_COLOR') delete env[k];
Object.assign(env, {
  GIT_AUTHOR_NAME: 'Demo Dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'Demo Dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
  GIT_AUTHOR_DATE: '2026-03-01T10:00:00Z',
  GIT_COMMITTER_DATE: '2026-03-01T10:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: os.devNull,
});

const root = mkdtempSync(path.join(os.tmpdir(), 'findings-demo-'));
let step = 0;

function fail(message, output = '') {
  process.stderr.write(`\ndemo: FAILED at step ${step}: ${message}\n`);
  if (output) process.stderr.write(`${output.replace(/^/gm, '  | ')}\n`);
  process.stderr.write(`demo: the temporary repository is kept at ${root}\n`);
  process.exit(1);
}

/** Runs a command in the temp repository; the exit code must be `code`. Returns stdout + stderr. */
function run(cmd, args, { code = 0, input } = {}) {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8', input: input ?? '' });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== code) fail(`\`${[path.basename(cmd), ...args].join(' ')}\` exited ${r.status}, expected ${code}`, out);
  return out;
}
const findings = (args, opts) => run(process.execPath, [FINDINGS, ...args], opts);
const git = (args, opts) => run('git', args, opts);
/** `git commit` through the installed hooks (never --no-verify): what the user's commit does. */
const commit = (message, opts) => git(['commit', '-q', '-m', message], opts);
const write = (rel, text) => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};
const read = (rel) => readFileSync(path.join(root, rel), 'utf8');

function heading(title) {
  step += 1;
  process.stdout.write(`\n── ${step}. ${title}\n`);
}
/** Prints the lines of `out` that match `pick` (at most `max`), indented; fails if none does. */
function show(out, pick, { max = 4, what = String(pick) } = {}) {
  const lines = out.split('\n').filter((l) => pick.test(l));
  if (lines.length === 0) fail(`expected output matching ${what}`, out);
  for (const l of lines.slice(0, max)) process.stdout.write(`   ${l.trim()}\n`);
  if (lines.length > max) process.stdout.write(`   … ${lines.length - max} more\n`);
  return lines;
}
const say = (text) => process.stdout.write(`   ${text}\n`);
const expect = (ok, message, out) => ok || fail(message, out);

// ── 0. A temporary git repository holding a copy of examples/demo, with husky and `findings init`.
cpSync(path.join(PACKAGE_ROOT, 'examples', 'demo'), root, { recursive: true });
git(['init', '-q', '-b', 'main']);
mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
symlinkSync(path.join(PACKAGE_ROOT, 'node_modules', 'husky'), path.join(root, 'node_modules', 'husky'));
const shim = path.join(root, 'node_modules', '.bin', 'findings');
writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${FINDINGS}" "$@"\n`);
chmodSync(shim, 0o755);
write('.gitignore', 'node_modules\n');
findings(['init']);
git(['add', '-A']);
// Set-up, not part of the story: the copy is the committed demo, which `npm run demo` has just
// compiled and checked, so its first commit skips the hooks (one hook run less).
git(['commit', '-q', '--no-verify', '-m', 'the demo project']);
process.stdout.write(`findings-compiler, the whole loop, in a temporary copy of examples/demo: ${keep ? root : '(removed at the end)'}\n`);

// The defect class of this walk: a bare `throw new Error(` in library code (callers cannot tell
// a parse error from a bug). examples/demo/src/parse.ts has one.
const CLASS = 'bare-error-throw';

heading('Review: QA fails task T-1 (objective "list-parsing") with a structured finding');
findings(['review', 'task', 'T-1', '--objective', 'list-parsing', '--criterion', 'parse errors are typed']);
write(
  'review-t1.json',
  JSON.stringify([
    {
      severity: 'major',
      file: 'src/parse.ts',
      line: 7,
      criterion: 'AC1',
      expected: 'a typed ParseError callers can catch',
      actual: 'a bare Error that callers cannot tell from a bug',
      fix: 'throw ParseError',
      class: CLASS,
    },
  ]),
);
show(findings(['review', 'fail', 'T-1', '--findings', 'review-t1.json']), /\[F-[0-9a-f]{8}\]/);
show(findings(['review', 'submit', 'T-1'], { code: 1 }), /open|resolve/i, { max: 2, what: 'submit refused while the finding is open' });

heading('A second objective: T-2 ("config-loading") repeats the defect class');
write('src/config.ts', "export function loadConfig(text: string): unknown {\n  if (text.trim() === '') throw new Error('empty config');\n  return JSON.parse(text);\n}\n");
git(['add', 'src/config.ts']);
commit('load the configuration');
findings(['review', 'task', 'T-2', '--objective', 'config-loading', '--criterion', 'a bad config names the problem']);
write(
  'review-t2.json',
  JSON.stringify([
    {
      severity: 'minor',
      file: 'src/config.ts',
      line: 2,
      expected: 'a typed ConfigError',
      actual: 'a bare Error again',
      class: CLASS,
    },
  ]),
);
show(findings(['review', 'fail', 'T-2', '--findings', 'review-t2.json']), /\[F-[0-9a-f]{8}\]/);
rmSync(path.join(root, 'review-t1.json'));
rmSync(path.join(root, 'review-t2.json'));

heading('findings recur: a class seen in two objectives becomes an advisory candidate');
findings(['recur']);
const candidates = read('.agents/findings/candidates.jsonl').trim().split('\n').map((l) => JSON.parse(l));
const candidate = candidates.find((c) => c.class_key === CLASS);
expect(candidate && candidate.recurrence_count === 2, `no candidate for ${CLASS} with recurrence_count 2`, read('.agents/findings/candidates.jsonl'));
say(`.agents/findings/candidates.jsonl: class ${CLASS}, recurrence_count ${candidate.recurrence_count}, advisory ${candidate.advisory}`);
say(`evidence: ${candidate.evidence.map((e) => `${e.objective} (${e.task})`).join(', ')}`);
say(`draft ${candidate.proposed_entry.id}: ${candidate.proposed_entry.pattern}`);

heading('findings recur --promote: the edited draft joins the registry');
const findingId = candidate.proposed_entry.id;
// The draft is written from the first finding's words; a person edits it in place (recur keeps
// the edit, docs/lifecycle.md) before promoting it.
const edited = candidates.map((c) =>
  c.class_key !== CLASS
    ? c
    : {
        ...c,
        proposed_entry: {
          ...c.proposed_entry,
          pattern: 'Library code throws a bare Error, so callers cannot tell bad input from a bug.',
          detection_question: 'Does the change throw a bare Error from src/?',
          checklist_item: 'Throw a typed error (ParseError, ConfigError) from library code, never a bare Error.',
        },
      },
);
write('.agents/findings/candidates.jsonl', `${edited.map((c) => JSON.stringify(c)).join('\n')}\n`);
say(`edited the draft's pattern: ${edited.find((c) => c.class_key === CLASS).proposed_entry.pattern}`);
show(findings(['recur', '--promote', CLASS]), /promot|added|appended/i, { max: 2 });
expect(read('.agents/findings/registry.jsonl').includes(`"id":"${findingId}"`), `${findingId} is not in the registry`);

heading('Compile: promote to an artifact, make it mechanical, compile a shadow constraint');
show(run(process.execPath, [FINDINGS_COMPILE]), new RegExp(`created.*${findingId}|findings compile:`), { max: 4 });
// A person turns the advice into a check: detector, globs and fixtures (docs/compiler.md).
const artifact = `.agents/findings/${findingId}.md`;
const fixtures = `.agents/constraints/fixtures/${findingId}`;
write(`${fixtures}/positive.ts`, "export function parse(s: string): string {\n  if (s === '') throw new Error('empty');\n  return s;\n}\n");
write(`${fixtures}/negative.ts`, "import { ParseError } from './errors';\nexport function parse(s: string): string {\n  if (s === '') throw new ParseError('empty');\n  return s;\n}\n");
const mechanical = read(artifact)
  .replace('detectability: "advisory"', 'detectability: "mechanical"')
  .replace(/compiler_targets: \[(.*?)\]/, 'compiler_targets: [$1,"constraint"]')
  .replace(
    /\n---\n/,
    [
      '',
      'compiler:',
      '  applies_to: { scope: "files", path_globs: ["src/*.ts"] }',
      '  detector: { kind: "regex", pattern: "\\\\bthrow new Error\\\\(", message: "throw a typed error (ParseError, ConfigError)" }',
      '  evidence:',
      `    positive_refs: ["${fixtures}/positive.ts"]`,
      `    negative_control_refs: ["${fixtures}/negative.ts"]`,
      '---',
      '',
    ].join('\n'),
  );
expect(mechanical.includes('"constraint"') && mechanical.includes('compiler:'), `could not edit ${artifact}`, read(artifact));
write(artifact, mechanical);
say(`edited ${artifact}: detectability "mechanical", detector \\bthrow new Error\\( on src/*.ts, two fixtures`);
run(process.execPath, [FINDINGS_COMPILE]);
const index = () => JSON.parse(read('.agents/constraints/index.json'));
const entry = () => index().constraints.find((c) => c.finding_id === findingId);
expect(entry()?.status === 'shadow', `no shadow constraint for ${findingId}`, read('.agents/constraints/index.json'));
const id = entry().id;
say(`.agents/constraints/index.json: ${id} — ${entry().status} + ${entry().enforcement_mode}`);
git(['add', '-A']);
commit('findings: reviews of T-1 and T-2, a recurring class promoted and compiled');

heading('A shadow warns at commit time and never blocks');
write('src/env.ts', "export function port(value: string): number {\n  const n = Number(value);\n  if (!Number.isInteger(n)) throw new Error('bad port');\n  return n;\n}\n");
git(['add', 'src/env.ts']);
const warned = commit('read the port');
show(warned, new RegExp(`src/env\\.ts:3.*${id.replace(/[.]/g, '\\.')}|${id.replace(/[.]/g, '\\.')}.*src/env\\.ts`), { max: 1, what: `a warning of ${id} on src/env.ts:3` });
show(warned, /problem/, { max: 1 });
say('commit made (exit 0)');

heading('findings constraint measure: replay the constraint over the history');
show(findings(['constraint', 'measure', id]), /distinct hits|measured/, { max: 2 });
const measurementFile = `.agents/constraints/measurements/${id}.json`;
const measured = JSON.parse(read(measurementFile));
expect(measured.hits.length === 3, `expected 3 distinct hits (parse.ts, config.ts, env.ts), got ${measured.hits.length}`, read(measurementFile));
// The demo's history is three commits long: it cannot supply the default 20 labels.
write('.agents/config.json', `${JSON.stringify({ activation: { min_labelled_hits: 3, min_precision: 0.95 } }, null, 2)}\n`);
say('this short history has 3 hits: .agents/config.json asks for 3 labelled hits (default 20)');

heading('Label: the script fills in a label file, findings constraint label --from reads it');
const sample = findings(['constraint', 'sample', id]);
const labels = sample.replace(/ \?$/gm, ' tp the demo class: a bare Error in library code');
write('labels.txt', labels);
for (const l of labels.split('\n').filter((x) => x.trim() && !x.startsWith('#'))) say(`labels.txt: ${l}`);
show(findings(['constraint', 'label', id, '--from', 'labels.txt']), /labelled/, { max: 1 });
rmSync(path.join(root, 'labels.txt'));

heading('Activate: refused while the tree still violates it, accepted once fixed');
show(findings(['constraint', 'activate', id], { code: 1 }), /current tree|existing violation/, { max: 2 });
write('src/errors.ts', 'export class ParseError extends Error {}\nexport class ConfigError extends Error {}\n');
for (const [file, from, to] of [
  ['src/parse.ts', 'throw new Error(', 'throw new ParseError('],
  ['src/config.ts', 'throw new Error(', 'throw new ConfigError('],
  ['src/env.ts', 'throw new Error(', 'throw new ConfigError('],
]) {
  const text = read(file);
  const named = to.slice('throw new '.length, -1);
  write(file, `import { ${named} } from './errors';\n${text.replace(from, to)}`);
}
git(['add', '-A']);
commit('typed errors (fixes the review findings)');
say('fixed: ParseError and ConfigError in src/errors.ts, committed');
show(findings(['constraint', 'activate', id]), /active \+ block/, { max: 1 });
git(['add', '-A']);
commit(`findings: activate ${id}`);

heading('A commit that repeats the defect is blocked by the real pre-commit hook');
write('src/retry.ts', "export function retries(n: number): number {\n  if (n < 0) throw new Error('negative');\n  return n;\n}\n");
git(['add', 'src/retry.ts']);
const blocked = commit('retries', { code: 1 });
show(blocked, /src\/retry\.ts:2.*error|error.*src\/retry\.ts:2|src\/retry\.ts:2/, { max: 1, what: 'an error on src/retry.ts:2' });
show(blocked, /blocked|✖|problem/i, { max: 2 });
expect(git(['status', '--porcelain', 'src/retry.ts']).startsWith('A '), 'src/retry.ts should still be staged, uncommitted');
say('commit refused (exit 1): src/retry.ts stays staged');

heading(`findings explain ${id}: from the block back to the reviews that taught it`);
const explained = findings(['explain', id]);
show(explained, /T-1|T-2|list-parsing|config-loading/, { max: 4, what: 'the two review tasks' });
show(explained, /precision/, { max: 1 });

process.stdout.write(`\ndemo: the whole loop ran${keep ? ` in ${root}` : ''}; every step behaved as documented.\n`);
if (!keep) rmSync(root, { recursive: true, force: true });
