/**
 * Worker side of bounded evaluation (src/match/bounded.ts): compiles the detector it is sent and
 * evaluates it with no time check of its own — the parent terminates this thread when the
 * budget is spent, which is the only way to stop a re2js search that is already running.
 */
import { parentPort } from 'node:worker_threads';
import { compileDetector, evaluate, loadDetectorKinds, type DetectorSpec } from './detector.js';

export interface BoundedTask {
  readonly id: number;
  readonly spec: DetectorSpec;
  readonly text: string;
  readonly maxHits: number;
}

parentPort?.on('message', async (task: BoundedTask) => {
  await loadDetectorKinds([task.spec.kind]);
  const compiled = compileDetector(task.spec);
  if (!compiled.ok) {
    parentPort!.postMessage({ id: task.id, hits: [], error: compiled.problem });
    return;
  }
  const r = evaluate(compiled.matcher, task.text, { budgetMs: Number.POSITIVE_INFINITY, maxHits: task.maxHits });
  parentPort!.postMessage({ id: task.id, hits: r.hits });
});
parentPort?.postMessage('ready');
