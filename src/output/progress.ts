/**
 * The progress line of a long run (`constraint measure` over a history, `check --all`): done/total,
 * rate and ETA, on stderr, only on a terminal and only once the run has lasted a second, so short
 * runs and piped or redirected output never see it (docs/lifecycle.md, "Progress").
 */

export interface ProgressState {
  readonly done: number;
  readonly total: number;
  /** When the run started and the current time, in milliseconds on one clock (performance.now()). */
  readonly startedAt: number;
  readonly now: number;
  /** Defaults: `measuring` and `commits`. */
  readonly verb?: string;
  readonly unit?: string;
}

/** `measuring: 500/2000 commits, 250 commits/s, ETA 6s`. Pure. */
export function renderProgress(state: ProgressState): string {
  const { done, total, verb = 'measuring', unit = 'commits' } = state;
  const seconds = Math.max((state.now - state.startedAt) / 1000, 0.001);
  const rate = done / seconds;
  const left = total > done && rate > 0 ? Math.ceil((total - done) / rate) : 0;
  const eta = left >= 60 ? `${Math.floor(left / 60)}m${String(left % 60).padStart(2, '0')}s` : `${left}s`;
  return `${verb}: ${done}/${total} ${unit}, ${Math.round(rate)} ${unit}/s, ETA ${eta}`;
}

/** The part of a stream a reporter needs (process.stderr, or a test's). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export interface ProgressOptions {
  readonly verb?: string;
  readonly unit?: string;
  /** Nothing is shown before the run has lasted this long (default 1000 ms). */
  readonly afterMs?: number;
  /** The clock (default performance.now). */
  readonly now?: () => number;
}

export interface ProgressReporter {
  /** Reports `done` units (and a total learnt late, when given); redraws the line in place on a terminal. */
  update(done: number, total?: number): void;
  /** Erases the line, if one was drawn, before the run's own output. */
  end(): void;
}

/** The delay before a progress line appears: FINDINGS_PROGRESS_AFTER_MS (0 in tests), else one second. */
export function progressDelayMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.FINDINGS_PROGRESS_AFTER_MS);
  return env.FINDINGS_PROGRESS_AFTER_MS !== undefined && Number.isFinite(v) && v >= 0 ? v : 1000;
}

/** A reporter that draws on `stream` only when it is a terminal; elsewhere it does nothing. */
export function progressReporter(stream: ProgressStream, total: number, options: ProgressOptions = {}): ProgressReporter {
  if (stream.isTTY !== true) return { update: () => undefined, end: () => undefined };
  const now = options.now ?? (() => performance.now());
  const startedAt = now();
  const afterMs = options.afterMs ?? progressDelayMs();
  let shown = false;
  let all = total;
  return {
    update(done, lateTotal) {
      if (lateTotal !== undefined) all = lateTotal;
      const t = now();
      if (t - startedAt < afterMs) return;
      shown = true;
      const line = renderProgress({
        done,
        total: all,
        startedAt,
        now: t,
        ...(options.verb !== undefined ? { verb: options.verb } : {}),
        ...(options.unit !== undefined ? { unit: options.unit } : {}),
      });
      stream.write(`\r\x1b[K${line}`);
    },
    end() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
