/**
 * `findings ttl [--apply]`: automatic TTL retirement, which the registry contract leaves
 * deferred (docs/contracts/registry.md#retirement-and-supersession: `ttl_days` is advisory in v1).
 * An active finding expires when more than `ttl_days` days have passed since it was last cited
 * (or since its `date` when never cited). `ttl_days: 0` means "no expiry".
 */
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { Layout } from '../layout.js';
import type { RegistryLine } from '../registry/reader.js';
import { readRegistry } from '../registry/reader.js';
import { retireEntries } from '../registry/writer.js';
import { worktreeFiles } from '../repo-files.js';

const DAY_MS = 86_400_000;

export interface Expired {
  readonly id: string;
  readonly line: number;
  /** Which field the age counts from. */
  readonly from: 'last_cited' | 'date';
  /** That field's value. */
  readonly since: string;
  readonly age_days: number;
  readonly ttl_days: number;
}

/** Parses `YYYY-MM-DD` (as UTC midnight) or an ISO 8601 instant; NaN when it is neither. */
function instant(value: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
}

/** The active entries past their TTL at `at`, by registry line. Pure. */
export function expiredEntries(lines: readonly RegistryLine[], at: Date): { expired: Expired[]; diagnostics: Diagnostic[] } {
  const expired: Expired[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { line, entry } of lines) {
    if (entry.status !== 'active' || entry.ttl_days === 0) continue;
    const from = entry.last_cited === null ? 'date' : 'last_cited';
    const since = entry.last_cited ?? entry.date;
    const t = instant(since);
    if (Number.isNaN(t)) {
      diagnostics.push(
        diagnostic({
          file: Layout.registry,
          line,
          severity: 'warning',
          ruleId: 'ttl/bad-date',
          message: `${entry.id}: ${from} "${since}" is not a date; TTL not checked`,
        }),
      );
      continue;
    }
    const elapsed = at.getTime() - t;
    if (elapsed > entry.ttl_days * DAY_MS)
      expired.push({ id: entry.id, line, from, since, age_days: Math.floor(elapsed / DAY_MS), ttl_days: entry.ttl_days });
  }
  return { expired: expired.sort((a, b) => a.line - b.line || compareStrings(a.id, b.id)), diagnostics };
}

export interface TtlResult {
  readonly expired: Expired[];
  readonly retired: string[];
  readonly diagnostics: Diagnostic[];
}

/** Lists the expired findings; with `apply`, retires them through the registry writer. */
export async function ttlRun(root: string, at: Date, apply: boolean): Promise<TtlResult> {
  const registry = await readRegistry(worktreeFiles(root));
  const { expired, diagnostics } = expiredEntries(registry.entries, at);
  diagnostics.unshift(...registry.warnings);
  if (!apply || expired.length === 0) return { expired, retired: [], diagnostics };
  const ids = [...new Set(expired.map((e) => e.id))];
  const r = await retireEntries(
    root,
    ids.map((id) => ({ id })),
  );
  diagnostics.push(...r.diagnostics);
  return { expired, retired: r.diagnostics.some((d) => d.severity === 'error') ? [] : ids, diagnostics };
}
