/**
 * `findings constraint measure|label|sample|baseline|activate|retire` — the constraint lifecycle
 * (docs/contracts/compiler.md#lifecycle and #replay-qualification; docs/lifecycle.md).
 * Exit codes: 0 done; 1 refused (a condition failed, an unknown id or hit); 2 bad usage or an
 * index / measurement that cannot be read.
 */
import { hasErrors, type Diagnostic } from '../../diagnostics.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { formatRatio } from '../../lifecycle/activate.js';
import type { MeasuredHit, Measurement, MeasurementSummary } from '../../lifecycle/measurement.js';
import type { MeasurementRead } from '../../lifecycle/store.js';
import { formatInterval } from '../../lifecycle/wilson.js';
import { currentConstraintIds } from '../../constraints/legacy-ids.js';
import { readStdin } from '../io.js';
import { type CommandContext, defineCommandGroup, subcommand } from '../define-command.js';
import type { CommonOptions } from '../options.js';

/** Unreadable inputs (bad JSON, schema) are exit 2; refusals are exit 1. */
function exitFor(diagnostics: readonly Diagnostic[]): ExitCode {
  if (diagnostics.some((d) => d.severity === 'error' && /^(constraint-index|measurement)\//.test(d.ruleId))) return ExitCode.Usage;
  return hasErrors(diagnostics) ? ExitCode.Failed : ExitCode.Ok;
}

/** `0.95 (95% CI 0.76–0.99)`: the point value with its Wilson interval (docs/lifecycle.md). */
function precisionText(tp: number, labelled: number, precision: number): string {
  return labelled === 0 ? 'n/a' : `${formatRatio(precision)} (${formatInterval(tp, labelled)})`;
}

function describe(s: MeasurementSummary): string {
  return (
    `${s.samples} samples, ${s.hits} distinct hits, ${s.labelled} labelled (${s.true_positives} true,` +
    ` ${s.false_positives} false), precision ${precisionText(s.true_positives, s.labelled, s.precision)}`
  );
}

function positiveInt(value: string, option = '--commits'): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${option} ${value}: must be an integer >= 1`);
  return n;
}

function seedOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new UsageError(`--seed ${value}: must be an integer from 0 to 4294967295`);
  return n;
}

/** The measurement to label or sample; exit 1 (missing) or 2 (unreadable) as diagnostics. */
async function loadMeasurement(root: string, id: string): Promise<MeasurementRead> {
  const { readMeasurement } = await import('../../lifecycle/store.js');
  return readMeasurement(root, id);
}

function noMeasurement(id: string, read: Exclude<MeasurementRead, { kind: 'ok' }>): Diagnostic[] {
  if (read.kind === 'invalid') return [...read.diagnostics];
  return [
    {
      file: `.agents/constraints/measurements/${id}.json`,
      line: 0,
      column: 0,
      severity: 'error',
      ruleId: 'lifecycle/no-measurement',
      message: `there is no measurement for ${id}; run \`findings constraint measure ${id}\` first`,
    },
  ];
}

/** The sample `--sample` and `sample` draw (same measurement, size and seed → same hits). */
async function drawSample(
  m: Measurement,
  size: string | undefined,
  seed: string | undefined,
): Promise<{ hits: MeasuredHit[]; seed: number; unlabelled: number }> {
  const { sampleHits, DEFAULT_SAMPLE_SIZE } = await import('../../lifecycle/sample.js');
  const n = size === undefined ? DEFAULT_SAMPLE_SIZE : positiveInt(size, '--size');
  const s = seedOption(seed);
  const r = s === undefined ? sampleHits(m, n) : sampleHits(m, n, s);
  return { hits: r.hits, seed: r.seed, unlabelled: r.unlabelled };
}

/** Key presses from a terminal in raw mode; Ctrl-C arrives as a key (the session quits on it). */
function rawKeys(stdin: NodeJS.ReadStream): { nextKey: () => Promise<string | null>; close: () => void } {
  const queue: string[] = [];
  const waiting: ((k: string | null) => void)[] = [];
  let ended = false;
  const onData = (d: Buffer | string): void => {
    const s = typeof d === 'string' ? d : d.toString('utf8');
    // An escape sequence (arrow keys) is one key; other input is split into characters.
    const keys = s.startsWith('\x1b') ? [s] : [...s];
    for (const k of keys) {
      const w = waiting.shift();
      if (w) w(k);
      else queue.push(k);
    }
  };
  const onEnd = (): void => {
    ended = true;
    for (const w of waiting.splice(0)) w(null);
  };
  stdin.setRawMode(true);
  stdin.on('data', onData);
  stdin.on('end', onEnd);
  stdin.resume();
  return {
    nextKey: () =>
      queue.length > 0 ? Promise.resolve(queue.shift()!) : ended ? Promise.resolve(null) : new Promise((resolve) => waiting.push(resolve)),
    close: () => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.setRawMode(false);
      stdin.pause();
    },
  };
}

interface MeasureOpts extends CommonOptions {
  since?: string;
  commits?: string;
}

interface LabelOpts extends CommonOptions {
  truePositive?: boolean;
  falsePositive?: boolean;
  from?: string;
  interactive?: boolean;
  sample?: boolean;
  size?: string;
  seed?: string;
}

interface SampleOpts extends CommonOptions {
  size?: string;
  seed?: string;
}

const measure = subcommand(
  'measure',
  'Replay constraints over the history of HEAD and record samples and distinct hits (each ' +
    'violation once, at the commit that introduced it) in .agents/constraints/measurements/<id>.json.',
  {
    declare: (cmd) =>
      cmd
        .argument('[ids...]', 'constraint ids (default: every shadow constraint; named ones may be active too)')
        .option('--since <rev>', 'only commits after <rev> (<rev>..HEAD)')
        .option('--commits <n>', 'only the newest <n> commits of HEAD'),
    root: 'any',
    formats: ['stylish', 'json'],
    action: async ({ io, opts, out, repoRoot }: CommandContext<MeasureOpts>, ids: string[]) => {
      let exit: ExitCode = ExitCode.Ok;
      if (opts.since !== undefined && opts.commits !== undefined) throw new UsageError('give either --since or --commits, not both');
      const commits = opts.commits === undefined ? undefined : positiveInt(opts.commits);
      const root = await repoRoot();
      const { measureConstraints } = await import('../../lifecycle/measure.js');
      const { progressDelayMs, progressReporter } = await import('../../output/progress.js');
      // On a terminal only (the reporter is silent elsewhere, and the commits are then not even counted).
      const progress = io.stderr.isTTY === true ? progressReporter(io.stderr, 0, { afterMs: progressDelayMs(io.env) }) : undefined;
      const r = await measureConstraints(root, {
        ids: await currentConstraintIds(root, ids, (l) => io.stderr.write(`${l}\n`)),
        range: { since: opts.since, commits },
        ...(progress ? { progress } : {}),
      });
      progress?.end();
      exit = exitFor(r.diagnostics);
      if (out.machine) {
        out.json({ head: r.head, commits: r.commits, measured: r.measured, diagnostics: r.diagnostics });
        return exit;
      }
      const { readMeasurement } = await import('../../lifecycle/store.js');
      for (const m of r.measured) {
        out.info(`${m.id}: ${describe(m.summary)}${m.errors > 0 ? `, ${m.errors} evaluation errors` : ''} → ${m.file} (${m.state})`);
        // Say what to do next: which hits still need a person's label, and the command that labels them.
        const read = await readMeasurement(root, m.id);
        const unlabelled = read.kind === 'ok' ? read.measurement.hits.filter((h) => h.label === undefined).map((h) => h.id) : [];
        if (unlabelled.length === 0) continue;
        out.info(
          `  ${unlabelled.length} hit(s) to label, e.g.: ${unlabelled.slice(0, 5).join(' ')}${unlabelled.length > 5 ? ` (all in ${m.file})` : ''}`,
        );
        out.info(
          `  label them: findings constraint label ${m.id} --interactive [--sample]  ` +
            `(or: findings constraint sample ${m.id} > labels.txt; edit; findings constraint label ${m.id} --from labels.txt)`,
        );
      }
      if (r.head !== null) out.info(`measured ${r.measured.length} constraint(s) over ${r.commits} commit(s) at ${r.head.slice(0, 8)}`);
      else if (r.diagnostics.length === 0) out.info('no shadow constraints to measure');
      await out.diagnostics(r.diagnostics);
      return exit;
    },
  },
);

const label = subcommand(
  'label',
  'Label measured hits as true or false positives (precision = true / labelled): by id, from a file, or at the keyboard.',
  {
    declare: (cmd) =>
      cmd
        .argument('<id>', 'constraint id')
        .argument(
          '[hit-ids...]',
          'hit ids as in the measurement file (<commit8>:<path>:<line>); "-" reads ids from standard input, one per line',
        )
        .option('--true-positive', 'the hits are real violations')
        .option('--false-positive', 'the hits are not violations')
        .option(
          '--from <file>',
          'read "<hit-id> tp|fp [note…]" lines from a file ("-" = standard input); the output of `constraint sample` once filled in',
        )
        .option(
          '--interactive',
          'show each unlabelled hit with its context and label it with a key (t true, f false, s skip, u undo, q quit); needs a terminal',
        )
        .option('--sample', 'with --interactive: only the hits `constraint sample` draws (same --size and --seed)')
        .option('--size <n>', 'with --sample: how many hits (default 20)')
        .option('--seed <n>', 'with --sample: the seed (default: derived from the measurement)'),
    root: 'any',
    formats: ['stylish', 'json'],
    action: async ({ io, opts, out, repoRoot }: CommandContext<LabelOpts>, givenId: string, hitArgs: string[]) => {
      let exit: ExitCode = ExitCode.Ok;
      const flag = opts.truePositive || opts.falsePositive;
      const modes = [hitArgs.length > 0 || flag, opts.from !== undefined, Boolean(opts.interactive)].filter(Boolean).length;
      if (modes !== 1)
        throw new UsageError(
          'give hit ids with --true-positive or --false-positive, or --from <file|->, or --interactive (one of the three)',
        );
      if ((opts.sample || opts.size !== undefined || opts.seed !== undefined) && !opts.interactive)
        throw new UsageError('--sample, --size and --seed go with --interactive (for a file: findings constraint sample)');
      if (!opts.sample && (opts.size !== undefined || opts.seed !== undefined)) throw new UsageError('--size and --seed need --sample');
      const root = await repoRoot();
      const [id] = (await currentConstraintIds(root, [givenId], (l) => io.stderr.write(`${l}\n`))) as [string];
      const { applyHitVerdicts, labelHits } = await import('../../lifecycle/label.js');
      if (opts.interactive) {
        const stdin = io.stdin as NodeJS.ReadStream;
        if (!stdin.isTTY || !io.stdout.isTTY || typeof stdin.setRawMode !== 'function') {
          throw new UsageError(
            '--interactive needs a terminal (standard input and output must be a TTY); use --from <file|-> or hit ids instead',
          );
        }
        const read = await loadMeasurement(root, id);
        if (read.kind !== 'ok') {
          const d = noMeasurement(id, read);
          exit = exitFor(d);
          await out.diagnostics(d);
          return exit;
        }
        const m = read.measurement;
        const hits = opts.sample ? (await drawSample(m, opts.size, opts.seed)).hits : m.hits.filter((h) => h.label === undefined);
        if (hits.length === 0) {
          const { summarize } = await import('../../lifecycle/measurement.js');
          out.info(`${id}: no hits to label; ${describe(summarize(m))}`);
          return exit;
        }
        const { runInteractive } = await import('../../lifecycle/interactive.js');
        const keys = rawKeys(stdin);
        try {
          const r = await runInteractive(root, m, hits, { write: (s) => io.stdout.write(s), nextKey: keys.nextKey });
          exit = exitFor(r.diagnostics);
          await out.diagnostics(r.diagnostics);
          out.info(`${id}: ${describe(r.summary)}`);
        } finally {
          keys.close();
        }
        return exit;
      }
      let r: Awaited<ReturnType<typeof applyHitVerdicts>>;
      if (opts.from !== undefined) {
        const text = opts.from === '-' ? await readStdin(io) : await readLabelFile(io.cwd, opts.from);
        const read = await loadMeasurement(root, id);
        const known = new Set(read.kind === 'ok' ? read.measurement.hits.map((h) => h.id) : []);
        const { parseLabelFile } = await import('../../lifecycle/label-file.js');
        const parsed = parseLabelFile(text, opts.from === '-' ? '<stdin>' : opts.from, known);
        if (parsed.problems.length > 0) {
          // A line that is not a label may mean the wrong file: apply nothing (exit 2).
          exit = ExitCode.Usage;
          if (out.machine) out.json({ id, changed: 0, summary: null, diagnostics: parsed.problems });
          else await out.diagnostics(parsed.problems);
          return exit;
        }
        r = await applyHitVerdicts(
          root,
          id,
          parsed.verdicts.map((v) => ({ id: v.id, verdict: v.note === undefined ? { label: v.label } : { label: v.label, note: v.note } })),
        );
        if (!out.machine && parsed.skipped.length > 0)
          out.info(`${id}: ${parsed.skipped.length} hit(s) without a verdict (?) left unlabelled`);
      } else {
        if (Boolean(opts.truePositive) === Boolean(opts.falsePositive))
          throw new UsageError('give exactly one of --true-positive or --false-positive');
        if (hitArgs.length === 0) throw new UsageError('give the hit ids to label');
        const hitIds: string[] = [];
        for (const h of hitArgs) {
          if (h === '-')
            hitIds.push(
              ...(await readStdin(io))
                .split(/\r?\n/)
                .map((l) => l.trim())
                .filter((l) => l !== ''),
            );
          else hitIds.push(h);
        }
        r = await labelHits(root, id, hitIds, opts.truePositive ? 'true_positive' : 'false_positive');
      }
      exit = exitFor(r.diagnostics);
      if (out.machine) {
        out.json({ id, changed: r.changed, summary: r.summary, diagnostics: r.diagnostics });
        return exit;
      }
      if (r.summary) out.info(`${id}: ${r.changed} hit(s) labelled; ${describe(r.summary)}`);
      await out.diagnostics(r.diagnostics);
      return exit;
    },
  },
);

const sample = subcommand(
  'sample',
  'Print a deterministic random sample of unlabelled distinct hits as a label file: fill in tp or fp, then `constraint label <id> --from <file>`.',
  {
    declare: (cmd) =>
      cmd
        .argument('<id>', 'constraint id')
        .option('--size <n>', 'how many hits (default 20)')
        .option('--seed <n>', 'the seed (default: derived from the measurement, so the sample is stable until the next measure)'),
    root: 'any',
    formats: ['stylish', 'json'],
    action: async ({ io, opts, out, repoRoot }: CommandContext<SampleOpts>, givenId: string) => {
      let exit: ExitCode = ExitCode.Ok;
      const root = await repoRoot();
      const [id] = (await currentConstraintIds(root, [givenId], (l) => io.stderr.write(`${l}\n`))) as [string];
      const read = await loadMeasurement(root, id);
      if (read.kind !== 'ok') {
        const d = noMeasurement(id, read);
        exit = exitFor(d);
        if (out.machine) out.json({ id, diagnostics: d });
        else await out.diagnostics(d);
        return exit;
      }
      const s = await drawSample(read.measurement, opts.size, opts.seed);
      const { readObjects } = await import('../../git/core.js');
      const names = s.hits.map((h) => `${h.commit}:${h.path}`).filter((n) => !n.includes('\n'));
      const blobs = await readObjects(root, names);
      const lineOf = (h: MeasuredHit): string | null => {
        const b = blobs.get(`${h.commit}:${h.path}`);
        if (b === undefined || b === null) return null;
        return (b.toString('utf8').split('\n')[h.line - 1] ?? '').replace(/\r$/, '');
      };
      if (out.machine) {
        out.json({
          id,
          seed: s.seed,
          size: s.hits.length,
          unlabelled: s.unlabelled,
          hits: s.hits.map((h) => ({ id: h.id, commit: h.commit, path: h.path, line: h.line, seen: h.seen, text: lineOf(h) })),
        });
        return exit;
      }
      const { labelFileEntry } = await import('../../lifecycle/label-file.js');
      io.stdout.write(
        `# ${id}: ${s.hits.length} of ${s.unlabelled} unlabelled distinct hit(s), seed ${s.seed}\n` +
          `# replace each ? with tp or fp (a note may follow), then: findings constraint label ${id} --from <this file>\n`,
      );
      for (const h of s.hits) io.stdout.write(labelFileEntry(h, lineOf(h)));
      return exit;
    },
  },
);

const baseline = subcommand(
  'baseline',
  'Record the violations of the tracked files at HEAD in .agents/constraints/baselines/<id>.json: ' +
    'activation and the gate then count only violations not in it.',
  {
    declare: (cmd) =>
      cmd.argument('<id>', 'constraint id').option('--prune', 'drop the recorded violations that no longer occur (records nothing new)'),
    root: 'any',
    formats: ['stylish', 'json'],
    action: async ({ io, opts, out, repoRoot }: CommandContext<CommonOptions & { prune?: boolean }>, givenId: string) => {
      let exit: ExitCode = ExitCode.Ok;
      const root = await repoRoot();
      const [id] = (await currentConstraintIds(root, [givenId], (l) => io.stderr.write(`${l}\n`))) as [string];
      const { recordBaseline } = await import('../../lifecycle/baseline.js');
      const r = await recordBaseline(root, id, { prune: opts.prune === true });
      exit = exitFor(r.diagnostics);
      if (out.machine) {
        out.json({
          id,
          file: r.file,
          state: r.state,
          violations: r.violations,
          files: r.files,
          ...(r.dropped !== undefined ? { dropped: r.dropped } : {}),
          diagnostics: r.diagnostics,
        });
        return exit;
      }
      await out.diagnostics(r.diagnostics);
      if (r.file !== null) {
        const dropped = r.dropped !== undefined ? `, ${r.dropped} no longer occurring dropped` : '';
        out.info(
          `${id}: ${r.violations} violation(s) in ${r.files} file(s) baselined${dropped} → ${r.file} (${r.state}); commit it with the change that needs it`,
        );
      }
      return exit;
    },
  },
);

const activate = subcommand(
  'activate',
  'Make a measured shadow constraint active + block (needs enough labelled hits, the precision, and a clean current tree).',
  {
    declare: (cmd) => cmd.argument('<id>', 'constraint id'),
    root: 'any',
    formats: ['stylish', 'json'],
    action: async ({ io, out, repoRoot }: CommandContext<CommonOptions>, givenId: string) => {
      let exit: ExitCode = ExitCode.Ok;
      const root = await repoRoot();
      const [id] = (await currentConstraintIds(root, [givenId], (l) => io.stderr.write(`${l}\n`))) as [string];
      const { activateConstraint } = await import('../../lifecycle/activate.js');
      const r = await activateConstraint(root, id);
      exit = r.activated ? ExitCode.Ok : exitFor(r.diagnostics) === ExitCode.Usage ? ExitCode.Usage : ExitCode.Failed;
      if (out.machine) {
        out.json({ id, activated: r.activated, evidence: r.evidence ?? null, diagnostics: r.diagnostics });
        return exit;
      }
      await out.diagnostics(r.diagnostics);
      if (r.activated && r.evidence) {
        const e = r.evidence;
        out.info(
          `${id}: active + block (precision ${precisionText(e.true_positives, e.labelled, e.precision)}, ${e.true_positives} ` +
            `of ${e.labelled} labelled hits true, ${e.hits} distinct hits in ${e.samples} samples; evidence ${e.evidence_ref})`,
        );
      } else {
        out.info(`${id}: not activated`);
      }
      return exit;
    },
  },
);

const retire = subcommand('retire', 'Retire an active constraint (it stays in the index for history; the gate ignores it).', {
  declare: (cmd) => cmd.argument('<id>', 'constraint id'),
  root: 'any',
  formats: ['stylish', 'json'],
  action: async ({ io, out, repoRoot }: CommandContext<CommonOptions>, givenId: string) => {
    let exit: ExitCode = ExitCode.Ok;
    const root = await repoRoot();
    const [id] = (await currentConstraintIds(root, [givenId], (l) => io.stderr.write(`${l}\n`))) as [string];
    const { retireConstraint } = await import('../../lifecycle/retire.js');
    const r = await retireConstraint(root, id);
    exit = exitFor(r.diagnostics);
    if (out.machine) {
      out.json({ id, retired: r.retired, diagnostics: r.diagnostics });
      return exit;
    }
    await out.diagnostics(r.diagnostics);
    if (r.retired) out.info(`${id}: retired (enforcement off; kept in the index for history)`);
    return exit;
  },
});

export const run = defineCommandGroup(
  'constraint',
  'Measure, label, sample, baseline, activate and retire constraints of .agents/constraints/index.json.',
  {
    subcommands: [measure, label, sample, baseline, activate, retire],
    missing: 'give a subcommand: measure, label, sample, baseline, activate or retire',
    helpCommand: true,
  },
);

/** Reads a label file relative to the working directory; a missing file is bad usage (exit 2). */
async function readLabelFile(cwd: string, file: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const path = await import('node:path');
  try {
    return await readFile(path.resolve(cwd, file), 'utf8');
  } catch (e) {
    throw new UsageError(`--from ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}
