/**
 * Evaluation that stops within its budget (docs/hooks.md, "Time budget"). re2js runs in
 * O(text × program) and a running search cannot be interrupted from the same thread, so a
 * budget checked after the search returns bounds nothing: `[a-z]{1000}[0-9]` on a 1 MB line
 * takes tens of seconds. Each evaluation's worst case is judged first by its detector kind
 * (`Matcher.fitsInline`, src/match/kind.ts; for regex, text length × program size); one that
 * fits the budget runs inline (the common case: every ordinary source file), a larger one runs
 * in a worker thread, compiled there from the detector's spec, that is terminated when the
 * budget is spent.
 */
import type { Worker } from 'node:worker_threads';
import { workerThreads } from '../lazy-builtins.js';
import { workerScript } from '../package-root.js';
import { evaluate, type Evaluation, type Matcher } from './detector.js';
import type { BoundedTask } from './bounded-worker.js';

/** True when an evaluation's worst case fits its budget, so it may run inline (the kind's own judgment). */
export function fitsInline(matcher: Matcher, textLength: number, budgetMs: number): boolean {
  return matcher.fitsInline(textLength, budgetMs);
}

export const overrunMessage = (budgetMs: number): string => `matching took longer than the ${budgetMs} ms budget and was stopped`;

/** Evaluates detectors with a hard time limit; one worker thread, reused until a task overruns. */
export class BoundedEvaluator {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;

  /** Starts the worker now when some evaluation ahead will need it, so its start overlaps other work. */
  warm(matchers: readonly Matcher[], longestText: number, budgetMs: number): void {
    if (matchers.some((m) => !fitsInline(m, longestText, budgetMs))) this.start();
  }

  /** Inline when the worst case fits the budget, else in the worker (terminated at the budget). */
  async evaluate(matcher: Matcher, text: string, budgetMs: number, maxHits = 1000): Promise<Evaluation> {
    if (fitsInline(matcher, text.length, budgetMs)) return evaluate(matcher, text, { budgetMs, maxHits });
    return this.inWorker(matcher, text, budgetMs, maxHits);
  }

  private start(): { worker: Worker; ready: Promise<void> } {
    if (this.worker === null || this.ready === null) {
      const worker = new (workerThreads().Worker)(
        workerScript(new URL('./bounded-worker.js', import.meta.url), 'dist', 'src', 'match', 'bounded-worker.js'),
      );
      worker.unref();
      this.worker = worker;
      // The budget starts once the thread runs: a slow start on a busy machine is not the pattern's cost.
      this.ready = new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('error', reject);
      });
      // A warmed worker may never be asked for anything; its failure is reported when it is.
      this.ready.catch(() => undefined);
    }
    return { worker: this.worker, ready: this.ready };
  }

  private async inWorker(matcher: Matcher, text: string, budgetMs: number, maxHits: number): Promise<Evaluation> {
    const { worker, ready } = this.start();
    try {
      await ready;
    } catch (error) {
      this.close();
      return { hits: [], error: `the matching worker could not start: ${error instanceof Error ? error.message : String(error)}` };
    }
    const id = this.nextId++;
    const task: BoundedTask = {
      id,
      spec: matcher.spec,
      text,
      maxHits,
    };
    return new Promise<Evaluation>((resolve) => {
      const onMessage = (m: { id: number; hits: Evaluation['hits']; error?: string }): void => {
        if (m.id !== id) return;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        resolve(m.error === undefined ? { hits: m.hits } : { hits: m.hits, error: m.error });
      };
      const onError = (error: Error): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        this.close();
        resolve({ hits: [], error: `matching failed: ${error.message}` });
      };
      const timer = setTimeout(() => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        this.close();
        resolve({ hits: [], error: overrunMessage(budgetMs) });
      }, budgetMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage(task);
    });
  }

  /** Ends the worker (if any); the evaluator can be used again afterwards. */
  close(): void {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w !== null) void w.terminate();
  }
}
