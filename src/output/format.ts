/** Output format selection shared by every command (`--format`, `--json`). */
import type { Diagnostic } from '../diagnostics.js';
import { UsageError } from '../exit-codes.js';
import { formatJson } from './json.js';
import { formatStylish } from './stylish.js';
import type { Paint } from './paint.js';
import type { ConstraintEntry } from '../types.js';
import type { MarkdownReport } from './markdown.js';

export type Format = 'stylish' | 'json' | 'sarif' | 'github' | 'markdown';

export function parseFormat(value: string | undefined, json: boolean | undefined, allowed: readonly Format[]): Format {
  if (json) return 'json';
  const f = (value ?? 'stylish') as Format;
  if (!allowed.includes(f)) throw new UsageError(`--format must be one of ${allowed.join(', ')} (got "${value}")`);
  return f;
}

export interface FormatContext {
  paint: Paint;
  /** Tool name and version for SARIF. */
  toolVersion?: string;
  /** The constraints of the index the diagnostics came from: SARIF rule metadata, Markdown statuses. */
  constraints?: readonly ConstraintEntry[];
  /** Markdown report framing (title, range changes, extra sections). */
  markdown?: Omit<MarkdownReport, 'constraints'>;
  /** Stylish: list suppressed hits with their reasons instead of only counting them (`--report-suppressions`). */
  listSuppressed?: boolean;
}

/** Renders diagnostics in a format. SARIF and GitHub renderers are loaded only when asked for. */
export async function formatDiagnostics(diagnostics: readonly Diagnostic[], format: Format, ctx: FormatContext): Promise<string> {
  switch (format) {
    case 'json':
      return formatJson(diagnostics);
    case 'sarif': {
      const { formatSarif } = await import('./sarif.js');
      return formatSarif(diagnostics, ctx.toolVersion ?? '0.0.0', ctx.constraints ?? []);
    }
    case 'github': {
      const { formatGithub } = await import('./github.js');
      // Suppressed hits are no annotations (JSON and SARIF carry them).
      return formatGithub(diagnostics.filter((d) => d.suppressed === undefined));
    }
    case 'markdown': {
      const { formatMarkdown } = await import('./markdown.js');
      return formatMarkdown(
        diagnostics.filter((d) => d.suppressed === undefined),
        { title: 'findings', changes: null, ...ctx.markdown, constraints: ctx.constraints ?? [] },
      );
    }
    default:
      return formatStylish(diagnostics, ctx.paint, ctx.listSuppressed === true);
  }
}
