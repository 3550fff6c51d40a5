/**
 * `.agents/tasks/<task>.json`, the task's acceptance criteria (docs/review.md, "Commands": `review
 * task`), pure: numbering new criteria and rendering the file. The write, under the task's lock,
 * is `updateTaskFile` in ./store.ts.
 */
import { stableStringify } from '../json-stable.js';
import type { TaskFile } from './types.js';

/** Key order of the task file (the criteria objects share it: id, text). */
const TASK_KEY_ORDER = ['id', 'owner', 'objective', 'source', 'criteria', 'text'];

/** What `review task` asks for: criterion texts, and an owner and objective when given. */
export interface TaskRequest {
  readonly criteria: readonly string[];
  readonly owner?: string | undefined;
  readonly objective?: string | undefined;
}

/** The criterion texts worth recording: trimmed, empty ones dropped. */
export function criterionTexts(raw: readonly string[]): string[] {
  return raw.map((t) => t.trim()).filter((t) => t !== '');
}

/**
 * The task file after a `review task` call. New texts get ids `AC<n+1>`, … after the highest
 * `AC<n>` already there (hand-written ids and gaps stay); a text already recorded is not added
 * again. A recorded owner stays (the request's owner only fills a missing one); a requested
 * objective replaces the recorded one.
 */
export function extendTask(task: string, current: TaskFile | null, request: TaskRequest): TaskFile {
  const criteria = [...(current?.criteria ?? [])];
  let n = criteria.reduce((m, c) => Math.max(m, Number(/^AC(\d+)$/.exec(c.id)?.[1] ?? 0)), 0);
  for (const text of request.criteria) {
    if (criteria.some((c) => c.text === text)) continue;
    n += 1;
    criteria.push({ id: `AC${n}`, text });
  }
  const owner = current?.owner ?? request.owner;
  const objective = request.objective ?? current?.objective;
  return {
    id: task,
    criteria,
    ...(owner ? { owner } : {}),
    ...(objective ? { objective } : {}),
    ...(current?.source ? { source: current.source } : {}),
  };
}

/** The file's text: deterministic JSON in TASK_KEY_ORDER. */
export function renderTaskFile(task: TaskFile): string {
  return stableStringify(task, TASK_KEY_ORDER);
}
