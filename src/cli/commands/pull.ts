/** `findings pull <source> [--ref R] [--tier pulled|seed] [--check]` (docs/reuse.md). */
import { Option } from 'commander';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { checkSources, pullSource, type PullResult, type SourceCheck } from '../../reuse/pull.js';
import type { PullTier } from '../../reuse/sources-file.js';
import { type CommandContext, defineCommand } from '../define-command.js';
import type { CommonOptions, Output } from '../options.js';

interface PullOptions extends CommonOptions {
  ref?: string;
  tier?: PullTier;
  check?: boolean;
}

/** The documented JSON shape of a pull (docs/reuse.md, "JSON output"). */
function pullJson(r: PullResult): unknown {
  return {
    url: r.url,
    ref: r.ref,
    commit: r.commit,
    tier: r.tier,
    outcome: r.outcome,
    added: r.added,
    updated: r.updated,
    unchanged: r.unchanged,
    retired: r.retired,
    kept_local: r.keptLocal,
    files: r.files,
    registry_changed: r.registryChanged,
    sources_changed: r.sourcesChanged,
    diagnostics: r.diagnostics,
  };
}

function summary(r: PullResult): string {
  const written = r.files.filter((f) => f.action === 'created' || f.action === 'updated').length;
  const parts = [
    `${r.added.length} added`,
    `${r.updated.length} updated`,
    `${r.retired.length} retired`,
    `${r.keptLocal.length} kept local`,
    `${written} file${written === 1 ? '' : 's'} written`,
  ];
  const nothing = !r.registryChanged && !r.sourcesChanged && written === 0;
  return `pulled ${r.url} at ${r.commit?.slice(0, 12) ?? '?'} (${r.ref}): ${parts.join(', ')}${nothing ? '; nothing changed' : ''}`;
}

function checkJson(checks: readonly SourceCheck[], diagnostics: unknown): unknown {
  return { sources: checks, diagnostics };
}

export const run = defineCommand(
  'pull',
  "Import another repository's active findings (registry lines, mechanical artifacts and their fixtures), read with git only.",
  {
    declare: (cmd) =>
      cmd
        .argument('[source]', 'a local path or any URL git can fetch (optional with --check: every recorded source)')
        .option('--ref <ref>', "the source's ref to read (default: its HEAD)")
        .addOption(new Option('--tier <tier>', 'tier of imported entries').choices(['pulled', 'seed']).default('pulled'))
        .option('--check', 'write nothing; exit 1 when a recorded source has moved past the recorded commit'),
    root: 'any',
    formats: ['stylish', 'json'],
    action: async ({ io, opts, out, repoRoot }: CommandContext<PullOptions>, source: string | undefined) => {
      const root = await repoRoot();
      if (opts.check) return check(root, source, io.cwd, out);
      if (source === undefined) throw new UsageError('missing required argument "source" (a path or URL; only --check may omit it)');
      if (opts.ref !== undefined && opts.ref === '') throw new UsageError('--ref must not be empty');
      const result = await pullSource(root, {
        source,
        ...(opts.ref !== undefined ? { ref: opts.ref } : {}),
        tier: opts.tier ?? 'pulled',
        cwd: io.cwd,
      });
      if (out.machine) out.json(pullJson(result));
      else {
        await out.diagnostics(result.diagnostics);
        if (result.outcome === 'pulled') {
          for (const id of result.added) out.info(`added     ${id}`);
          for (const id of result.updated) out.info(`updated   ${id}`);
          for (const id of result.retired) out.info(`retired   ${id}`);
          for (const id of result.keptLocal) out.info(`kept      ${id} (local entry or local edit wins)`);
          for (const f of result.files) if (f.action === 'created' || f.action === 'updated') out.info(`${f.action.padEnd(9)} ${f.path}`);
          out.info(summary(result));
        }
      }
      return result.outcome === 'pulled' ? ExitCode.Ok : result.outcome === 'rejected' ? ExitCode.Failed : ExitCode.Usage;
    },
  },
);

/** `pull --check`: exit 1 when a recorded source moved, 2 when one cannot be read (or sources.json is broken). */
async function check(root: string, source: string | undefined, cwd: string, out: Output): Promise<ExitCode> {
  const { checks, diagnostics } = await checkSources(root, { ...(source !== undefined ? { source } : {}), cwd });
  if (out.machine) out.json(checkJson(checks, diagnostics));
  else {
    await out.diagnostics(diagnostics);
    for (const c of checks) if (c.state === 'current') out.info(`${c.url} (${c.ref}) is current at ${c.current?.slice(0, 12)}`);
    if (checks.length === 0 && diagnostics.length === 0) out.info('no sources recorded in .agents/findings/sources.json; nothing to check');
  }
  if (checks.some((c) => c.state === 'unreadable') || (checks.length === 0 && diagnostics.length > 0)) return ExitCode.Usage;
  return checks.some((c) => c.state !== 'current') ? ExitCode.Failed : ExitCode.Ok;
}
