/**
 * `findings constraint measure|label|activate|retire` — the constraint lifecycle
 * (finding-compiler.md, "Lifecycle" and "Replay qualification"; docs/lifecycle.md).
 * Exit codes: 0 done; 1 refused (a condition failed, an unknown id or hit); 2 bad usage or an
 * index / measurement that cannot be read.
 */
import { hasErrors, type Diagnostic } from '../../diagnostics.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { formatRatio } from '../../lifecycle/activate.js';
import type { MeasurementSummary } from '../../lifecycle/measurement.js';
import type { CliIo } from '../io.js';
import { readStdin } from '../io.js';
import { addFormatOptions, addRootOption, baseCommand, Output, parseArgs, resolveRoot, subCommand, type CommonOptions } from '../options.js';

/** Unreadable inputs (bad JSON, schema) are exit 2; refusals are exit 1. */
function exitFor(diagnostics: readonly Diagnostic[]): ExitCode {
  if (diagnostics.some((d) => d.severity === 'error' && /^(index|measurement)\//.test(d.ruleId))) return ExitCode.Usage;
  return hasErrors(diagnostics) ? ExitCode.Failed : ExitCode.Ok;
}

function describe(s: MeasurementSummary): string {
  const precision = s.labelled === 0 ? 'n/a' : formatRatio(s.precision);
  return `${s.samples} samples, ${s.hits} hits, ${s.labelled} labelled (${s.true_positives} true, ${s.false_positives} false), precision ${precision}`;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--commits ${value}: must be an integer >= 1`);
  return n;
}

interface MeasureOpts extends CommonOptions {
  since?: string;
  commits?: string;
}

interface LabelOpts extends CommonOptions {
  truePositive?: boolean;
  falsePositive?: boolean;
}

export async function run(args: string[], io: CliIo): Promise<ExitCode> {
  let exit: ExitCode = ExitCode.Ok;
  const cmd = baseCommand('constraint', 'Measure, label, activate and retire constraints of .agents/constraints/index.json.', io);

  const measure = subCommand(cmd, 'measure', 'Replay constraints over the history of HEAD and record samples and hits in .agents/constraints/measurements/<id>.json.', io)
    .argument('[ids...]', 'constraint ids (default: every shadow constraint; named ones may be active too)')
    .option('--since <rev>', 'only commits after <rev> (<rev>..HEAD)')
    .option('--commits <n>', 'only the newest <n> commits of HEAD');
  addRootOption(measure);
  addFormatOptions(measure, ['stylish', 'json']);
  measure.action(async (ids: string[], opts: MeasureOpts) => {
    const out = Output.from(io, opts, ['stylish', 'json']);
    if (opts.since !== undefined && opts.commits !== undefined) throw new UsageError('give either --since or --commits, not both');
    const commits = opts.commits === undefined ? undefined : positiveInt(opts.commits);
    const root = await resolveRoot(opts.root, io);
    const tty = Boolean(io.stderr.isTTY);
    const { measureConstraints } = await import('../../lifecycle/measure.js');
    const r = await measureConstraints(root, {
      ids,
      range: { since: opts.since, commits },
      ...(tty ? { onProgress: (m: string) => io.stderr.write(`\r\x1b[K${m}`) } : {}),
    });
    if (tty) io.stderr.write('\r\x1b[K');
    exit = exitFor(r.diagnostics);
    if (out.machine) {
      out.json({ head: r.head, commits: r.commits, measured: r.measured, diagnostics: r.diagnostics });
      return;
    }
    const { readMeasurement } = await import('../../lifecycle/store.js');
    for (const m of r.measured) {
      out.info(`${m.id}: ${describe(m.summary)}${m.errors > 0 ? `, ${m.errors} evaluation errors` : ''} → ${m.file} (${m.state})`);
      // Say what to do next: which hits still need a person's label, and the command that labels them.
      const read = await readMeasurement(root, m.id);
      const unlabelled = read.kind === 'ok' ? read.measurement.hits.filter((h) => h.label === undefined).map((h) => h.id) : [];
      if (unlabelled.length === 0) continue;
      out.info(`  ${unlabelled.length} hit(s) to label, e.g.: ${unlabelled.slice(0, 5).join(' ')}${unlabelled.length > 5 ? ` (all in ${m.file})` : ''}`);
      out.info(`  label them: findings constraint label ${m.id} <hit-id>… --true-positive | --false-positive`);
    }
    if (r.head !== null) out.info(`measured ${r.measured.length} constraint(s) over ${r.commits} commit(s) at ${r.head.slice(0, 8)}`);
    else if (r.diagnostics.length === 0) out.info('no shadow constraints to measure');
    await out.diagnostics(r.diagnostics);
  });

  const label = subCommand(cmd, 'label', 'Label measured hits as true or false positives (precision = true / labelled).', io)
    .argument('<id>', 'constraint id')
    .argument('<hit-ids...>', 'hit ids as in the measurement file (<commit8>:<path>:<line>); "-" reads ids from standard input, one per line')
    .option('--true-positive', 'the hits are real violations')
    .option('--false-positive', 'the hits are not violations');
  addRootOption(label);
  addFormatOptions(label, ['stylish', 'json']);
  label.action(async (id: string, hitArgs: string[], opts: LabelOpts) => {
    const out = Output.from(io, opts, ['stylish', 'json']);
    if (Boolean(opts.truePositive) === Boolean(opts.falsePositive)) throw new UsageError('give exactly one of --true-positive or --false-positive');
    const hitIds: string[] = [];
    for (const h of hitArgs) {
      if (h === '-') hitIds.push(...(await readStdin(io)).split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== ''));
      else hitIds.push(h);
    }
    const root = await resolveRoot(opts.root, io);
    const { labelHits } = await import('../../lifecycle/label.js');
    const r = await labelHits(root, id, hitIds, opts.truePositive ? 'true_positive' : 'false_positive');
    exit = exitFor(r.diagnostics);
    if (out.machine) {
      out.json({ id, changed: r.changed, summary: r.summary, diagnostics: r.diagnostics });
      return;
    }
    if (r.summary) out.info(`${id}: ${r.changed} hit(s) labelled; ${describe(r.summary)}`);
    await out.diagnostics(r.diagnostics);
  });

  const activate = subCommand(cmd, 'activate', 'Make a measured shadow constraint active + block (needs enough labelled hits, the precision, and a clean current tree).', io).argument('<id>', 'constraint id');
  addRootOption(activate);
  addFormatOptions(activate, ['stylish', 'json']);
  activate.action(async (id: string, opts: CommonOptions) => {
    const out = Output.from(io, opts, ['stylish', 'json']);
    const root = await resolveRoot(opts.root, io);
    const { activateConstraint } = await import('../../lifecycle/activate.js');
    const r = await activateConstraint(root, id);
    exit = r.activated ? ExitCode.Ok : exitFor(r.diagnostics) === ExitCode.Usage ? ExitCode.Usage : ExitCode.Failed;
    if (out.machine) {
      out.json({ id, activated: r.activated, evidence: r.evidence ?? null, diagnostics: r.diagnostics });
      return;
    }
    await out.diagnostics(r.diagnostics);
    if (r.activated && r.evidence) {
      const e = r.evidence;
      out.info(`${id}: active + block (precision ${formatRatio(e.precision)}, ${e.true_positives} of ${e.labelled} labelled hits true, ${e.samples} samples; evidence ${e.evidence_ref})`);
    } else {
      out.info(`${id}: not activated`);
    }
  });

  const retire = subCommand(cmd, 'retire', 'Retire an active constraint (it stays in the index for history; the gate ignores it).', io).argument('<id>', 'constraint id');
  addRootOption(retire);
  addFormatOptions(retire, ['stylish', 'json']);
  retire.action(async (id: string, opts: CommonOptions) => {
    const out = Output.from(io, opts, ['stylish', 'json']);
    const root = await resolveRoot(opts.root, io);
    const { retireConstraint } = await import('../../lifecycle/retire.js');
    const r = await retireConstraint(root, id);
    exit = exitFor(r.diagnostics);
    if (out.machine) {
      out.json({ id, retired: r.retired, diagnostics: r.diagnostics });
      return;
    }
    await out.diagnostics(r.diagnostics);
    if (r.retired) out.info(`${id}: retired (enforcement off; kept in the index for history)`);
  });

  if (args.length === 0) throw new UsageError('give a subcommand: measure, label, activate or retire');
  await parseArgs(cmd, args);
  return exit;
}
