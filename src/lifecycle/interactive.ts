/**
 * `findings constraint label <id> --interactive [--sample]`: label hits at the keyboard
 * (docs/lifecycle.md, "Labelling at the keyboard"). Each unlabelled distinct hit is shown with its
 * commit, path, line and 3 lines of context read from git at that commit, the match highlighted;
 * keys t (true), f (false), s (skip), u (undo), q (quit). Every key that changes a label is
 * written at once (one atomic write under compile.lock), so a crash loses nothing.
 *
 * The screen and the key handling are pure (`renderHit`, `Session`); `runInteractive` does the I/O.
 */
import { readObjects } from '../git/core.js';
import { compileDetector, evaluate } from '../match/detector.js';
import { formatRatio } from './activate.js';
import { applyHitVerdicts, type HitVerdict } from './label.js';
import { summarize, verdictOf, type MeasuredHit, type Measurement, type MeasurementSummary, type Verdict } from './measurement.js';
import { formatInterval } from './wilson.js';

const CONTEXT = 3;
const INVERSE = '\x1b[7m';
const NORMAL = '\x1b[27m';

/** `12/20 labelled, precision 0.92 (95% CI 0.75–0.98)` — over the whole measurement. */
export function progressText(s: MeasurementSummary): string {
  const precision = s.labelled === 0 ? 'n/a' : `${formatRatio(s.precision)} (${formatInterval(s.true_positives, s.labelled)})`;
  return `${s.labelled}/${s.hits} labelled, precision ${precision}`;
}

/** Columns [start, end) (0-based, UTF-16) of the matches that start on `line`, for highlighting. */
export function matchSpans(m: Pick<Measurement, 'detector'>, text: string, line: number): [number, number][] {
  let compiled: ReturnType<typeof compileDetector>;
  try {
    compiled = compileDetector(m.detector);
  } catch {
    return []; // a kind not loaded in this process: no highlighting
  }
  if (!compiled.ok || compiled.matcher.mode === 'must_contain') return [];
  return evaluate(compiled.matcher, text, { budgetMs: 250, maxHits: 100_000 })
    .hits.filter((h) => h.line === line)
    .map((h) => [h.column - 1, h.column - 1 + Math.max(h.match.length, 1)]);
}

/** Repository text is shown, never obeyed: control characters (escape sequences) become '·', one for one so columns stay. */
const visible = (s: string): string => s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '·');

function highlight(text: string, spans: readonly [number, number][]): string {
  let out = '';
  let pos = 0;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (start < pos) continue;
    out += `${text.slice(pos, start)}${INVERSE}${text.slice(start, end)}${NORMAL}`;
    pos = end;
  }
  return out + text.slice(pos);
}

/** The lines shown for one hit: where it is, then the line with 3 lines of context either side, the match highlighted. Pure. */
export function renderHit(
  hit: MeasuredHit,
  fileText: string | null,
  spans: readonly [number, number][],
  position: { index: number; count: number },
): string[] {
  const out = [
    `hit ${position.index + 1} of ${position.count}: ${visible(hit.id)}`,
    `  commit ${hit.commit}`,
    `  ${visible(hit.path)} line ${hit.line}${hit.seen > 0 ? ` (still there ${hit.seen} commit(s) later)` : ''}`,
    '',
  ];
  if (fileText === null) {
    out.push(`  (cannot read ${visible(hit.path)} at ${hit.commit.slice(0, 12)})`);
    return out;
  }
  const lines = fileText.split('\n');
  if (fileText.endsWith('\n')) lines.pop();
  const from = Math.max(1, hit.line - CONTEXT);
  const to = Math.min(lines.length, hit.line + CONTEXT);
  const width = String(to).length;
  for (let n = from; n <= to; n += 1) {
    const text = visible((lines[n - 1] ?? '').replace(/\r$/, ''));
    const mark = n === hit.line ? '>' : ' ';
    out.push(`${mark} ${String(n).padStart(width)} | ${n === hit.line ? highlight(text, spans) : text}`);
  }
  return out;
}

export type SessionStep =
  | { readonly kind: 'save'; readonly change: HitVerdict }
  | { readonly kind: 'move' }
  | { readonly kind: 'quit' }
  | { readonly kind: 'ignored' };

interface Done {
  readonly index: number;
  readonly id: string;
  /** The verdict before the key, restored by undo; undefined for a skip. */
  readonly previous?: Verdict | null;
}

/** Which hit is shown and what each key does. Pure state machine; the caller saves `save` steps. */
export class Session {
  index = 0;
  private readonly done: Done[] = [];

  constructor(readonly hits: readonly MeasuredHit[]) {}

  get finished(): boolean {
    return this.index >= this.hits.length;
  }

  current(): MeasuredHit | undefined {
    return this.hits[this.index];
  }

  key(k: string, verdictNow: (id: string) => Verdict | undefined): SessionStep {
    const hit = this.current();
    if (k === 'q' || k === '\x03' || k === '\x04') return { kind: 'quit' };
    if (k === 'u') {
      const last = this.done.pop();
      if (last === undefined) return { kind: 'ignored' };
      this.index = last.index;
      return last.previous === undefined ? { kind: 'move' } : { kind: 'save', change: { id: last.id, verdict: last.previous } };
    }
    if (hit === undefined) return { kind: 'ignored' };
    if (k === 's') {
      this.done.push({ index: this.index, id: hit.id });
      this.index += 1;
      return { kind: 'move' };
    }
    if (k === 't' || k === 'f') {
      this.done.push({ index: this.index, id: hit.id, previous: verdictNow(hit.id) ?? null });
      this.index += 1;
      return { kind: 'save', change: { id: hit.id, verdict: { label: k === 't' ? 'true_positive' : 'false_positive' } } };
    }
    return { kind: 'ignored' };
  }
}

export interface Terminal {
  write(s: string): void;
  /** The next key pressed (one character, or an escape sequence); null when input ended. */
  nextKey(): Promise<string | null>;
}

export interface InteractiveResult {
  readonly labelled: number;
  readonly summary: MeasurementSummary;
  readonly diagnostics: import('../diagnostics.js').Diagnostic[];
}

/** Runs a session over `hits` of the measurement `m`, saving each verdict as it is given. */
export async function runInteractive(
  root: string,
  m: Measurement,
  hits: readonly MeasuredHit[],
  term: Terminal,
): Promise<InteractiveResult> {
  const session = new Session(hits);
  const verdicts = new Map(m.hits.map((h) => [h.id, verdictOf(h)]));
  let summary = summarize(m);
  let labelled = 0;
  const texts = new Map<string, string | null>();
  const textOf = async (h: MeasuredHit): Promise<string | null> => {
    const name = `${h.commit}:${h.path}`;
    if (!texts.has(name)) {
      const blob = name.includes('\n') ? null : ((await readObjects(root, [name])).get(name) ?? null);
      texts.set(name, blob === null ? null : blob.toString('utf8'));
    }
    return texts.get(name) ?? null;
  };
  let message = '';
  for (;;) {
    const hit = session.current();
    const screen: string[] = [];
    if (hit === undefined) screen.push(`all ${hits.length} hit(s) of this session seen`);
    else {
      const text = await textOf(hit);
      screen.push(
        ...renderHit(hit, text, text === null ? [] : matchSpans(m, text, hit.line), { index: session.index, count: hits.length }),
      );
    }
    screen.push('', progressText(summary), hit === undefined ? 'u undo  q quit' : 't true  f false  s skip  u undo  q quit', message);
    term.write(`\x1b[2J\x1b[H${screen.join('\r\n')}`);
    message = '';
    const key = await term.nextKey();
    if (key === null) break;
    const step = session.key(key, (id) => verdicts.get(id));
    if (step.kind === 'quit') break;
    if (step.kind === 'ignored') {
      message = `(key ${JSON.stringify(key)} does nothing here)`;
      continue;
    }
    if (step.kind === 'save') {
      const r = await applyHitVerdicts(root, m.constraint_id, [step.change]);
      if (r.summary === null) return { labelled, summary, diagnostics: r.diagnostics };
      summary = r.summary;
      verdicts.set(step.change.id, step.change.verdict ?? undefined);
      labelled += step.change.verdict === null ? -1 : 1;
    }
  }
  term.write('\r\n');
  return { labelled, summary, diagnostics: [] };
}
