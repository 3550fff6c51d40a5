/**
 * `findings import github|gitlab`: the I/O around the pure pieces (docs/import.md). Reads the
 * export as a stream (./json-stream.ts), hands each object to the reader of its shape, maps each
 * thread to a finding (./map.ts), classifies them (./classify.ts), then writes each pull request's
 * task and ledger through the review ledger's writer (src/review/store.ts: per-task lock, one
 * append, the note regenerated). Nothing is written until the whole export has been read, and
 * nothing outside the repository (every path goes through src/fs/repo-write.ts). Offline: the only
 * other process is git, to read commented lines and find applied suggestions.
 */
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { loadConfig } from '../config.js';
import { readObjects, resolveCommit } from '../git/core.js';
import { asTopLevel, rootPathOf, rootPrefix } from '../git/project-root.js';
import { worktreeFiles } from '../repo-files.js';
import { readTaskChecked } from '../review/ledger.js';
import { updateLedger, updateTaskFile } from '../review/store.js';
import { taskPath } from '../layout.js';
import { appliedCommits } from './applied.js';
import { classify, compileRules, type ClassOrigin } from './classify.js';
import { graphqlKind, GraphqlCollector } from './github-graphql.js';
import { isRestComment, RestCollector } from './github-rest.js';
import { GitlabCollector, isGitlabDiscussion } from './gitlab.js';
import { ExportSyntaxError, readExportObjects } from './json-stream.js';
import { hunkLine, isSkip, mapThread, type MappedThread } from './map.js';
import { loadMarkdown } from './markdown.js';
import { planTask, type ReadyThread } from './plan.js';
import type { Forge, ImportedThread, Skip } from './thread.js';

export interface ImportOptions {
  readonly forge: Forge;
  /** The export's bytes, as read (a file stream or standard input). */
  readonly input: AsyncIterable<Buffer | string>;
  /** How diagnostics name the export (`reviews.json`, `<stdin>`). */
  readonly inputName: string;
  readonly includeBots: boolean;
  /** ISO 8601 (normalised): threads started before it are left out. */
  readonly since: string | null;
  /** GitLab only: the project's web URL, to build comment URLs (GitLab's notes carry none). */
  readonly projectUrl: string | null;
}

export interface TaskOutcome {
  readonly task: string;
  readonly filed: number;
  readonly updated: number;
  readonly resolved: number;
  readonly unchanged: number;
  readonly older: number;
}

export interface ImportResult {
  /** Errors mean the export could not be read (exit 2); warnings are skips and config problems. */
  readonly diagnostics: Diagnostic[];
  readonly skips: Skip[];
  /** Objects read from the export, threads found and comments in them. */
  readonly objects: number;
  readonly threads: number;
  readonly comments: number;
  readonly tasks: TaskOutcome[];
  readonly classes: Record<ClassOrigin, number>;
}

/** Tasks written at once: each takes its own lock and writes its own files. */
const WRITE_CONCURRENCY = 8;

/** Reads the whole export into threads; an unreadable export is an error diagnostic. */
async function readThreads(
  options: ImportOptions,
): Promise<{ threads: ImportedThread[]; skips: Skip[]; objects: number; fatal: Diagnostic | null }> {
  const rest = new RestCollector();
  const graphql = new GraphqlCollector();
  const gitlab = new GitlabCollector(options.projectUrl);
  const skips: Skip[] = [];
  let objects = 0;
  let recognised = 0;
  const other = options.forge === 'github' ? 'gitlab' : 'github';
  try {
    for await (const item of readExportObjects(options.input)) {
      if (item.kind === 'problem') {
        skips.push({ line: item.line, what: null, reason: item.message });
        continue;
      }
      objects++;
      const v = item.value as Record<string, unknown>;
      const github = isRestComment(v) ? 'rest' : graphqlKind(v) !== null ? 'graphql' : null;
      const gitlabShape = github === null && isGitlabDiscussion(v);
      if (options.forge === 'github' && github === 'rest') rest.add(v, item.line);
      else if (options.forge === 'github' && github === 'graphql') graphql.add(v, item.line);
      else if (options.forge === 'gitlab' && gitlabShape) gitlab.add(v, item.line);
      else {
        const shape = github !== null ? 'a GitHub review comment or GraphQL page' : gitlabShape ? 'a GitLab discussion' : null;
        skips.push({
          line: item.line,
          what: null,
          reason:
            shape !== null
              ? `${shape}: import it with \`findings import ${other}\``
              : 'not a review comment, review thread, GraphQL page or discussion (unknown shape)',
        });
        continue;
      }
      recognised++;
    }
  } catch (error) {
    if (!(error instanceof ExportSyntaxError)) throw error;
    return {
      threads: [],
      skips,
      objects,
      fatal: diagnostic({ file: options.inputName, line: error.line, ruleId: 'import/unreadable', message: error.message }),
    };
  }
  if (graphql.errors.length > 0) {
    const e = graphql.errors[0]!;
    return {
      threads: [],
      skips,
      objects,
      fatal: diagnostic({ file: options.inputName, line: e.line, ruleId: 'import/unreadable', message: e.message }),
    };
  }
  if (objects > 0 && recognised === 0) {
    const what = options.forge === 'github' ? 'GitHub review comments or review threads' : 'GitLab merge request discussions';
    return {
      threads: [],
      skips,
      objects,
      fatal: diagnostic({
        file: options.inputName,
        line: 1,
        ruleId: 'import/unknown-shape',
        message: `holds no ${what}; nothing imported`,
      }),
    };
  }
  skips.push(...rest.skips, ...graphql.skips, ...gitlab.skips);
  return { threads: mergeThreads([...rest.threads(), ...graphql.threads, ...gitlab.threads]), skips, objects, fatal: null };
}

/**
 * One thread per key: a REST and a GraphQL export of the same thread in one file become one (the
 * version with more comments, and the resolution from whichever says it). Sorted by key.
 */
export function mergeThreads(threads: readonly ImportedThread[]): ImportedThread[] {
  const byKey = new Map<string, ImportedThread>();
  for (const t of threads) {
    const prev = byKey.get(t.key);
    if (prev === undefined) {
      byKey.set(t.key, t);
      continue;
    }
    const main = t.comments.length > prev.comments.length ? t : prev;
    const said = t.resolved !== null ? t : prev;
    byKey.set(t.key, { ...main, resolved: said.resolved, resolvedBy: said.resolvedBy, resolvedAt: said.resolvedAt });
  }
  return [...byKey.values()].sort((a, b) => compareStrings(a.key, b.key));
}

/**
 * The threads with their paths relative to the project root: a forge names paths from the top
 * level of the repository, as git prints them, and a project below it (a monorepo's package,
 * ARCHITECTURE.md "Paths") keeps the threads on its own files only; the others are skipped.
 */
async function atProjectRoot(root: string, threads: readonly ImportedThread[], skips: Skip[]): Promise<ImportedThread[]> {
  const prefix = await rootPrefix(root);
  if (prefix === '') return [...threads];
  return threads.flatMap((t) => {
    if (t.path === null) return [t];
    const path = rootPathOf(asTopLevel(t.path), prefix);
    if (path !== null) return [{ ...t, path }];
    skips.push({ line: t.exportLine, what: t.key, reason: `its path ${JSON.stringify(t.path)} is outside this project (${prefix})` });
    return [];
  });
}

/** The commented lines git can give for threads whose export has no usable diff hunk, by thread key. */
async function codeLinesFromGit(root: string, threads: readonly ImportedThread[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const wanted = threads.filter((t) => hunkLine(t.diffHunk) === null && t.path !== null && !/[\n\r\0]/.test(t.path));
  const asked = wanted.flatMap((t) => {
    const at = t.line !== null && t.commit !== null ? { commit: t.commit, line: t.line } : null;
    const orig = t.originalLine !== null && t.originalCommit !== null ? { commit: t.originalCommit, line: t.originalLine } : null;
    const pick = at ?? orig;
    return pick === null ? [] : [{ key: t.key, name: `${pick.commit}:${t.path!}`, line: pick.line }];
  });
  if (asked.length === 0 || (await resolveCommit(root, 'HEAD')) === null) return out;
  const blobs = await readObjects(
    root,
    asked.map((a) => a.name),
  );
  for (const a of asked) {
    const blob = blobs.get(a.name);
    if (blob == null || blob.includes(0)) continue;
    const line = blob.toString('utf8').split('\n')[a.line - 1];
    if (line !== undefined && line.trim() !== '') out.set(a.key, line.trim().slice(0, 1_000));
  }
  return out;
}

/** Runs one import into the repository at `root`. */
export async function importReviews(root: string, options: ImportOptions): Promise<ImportResult> {
  const classes: Record<ClassOrigin, number> = { explicit: 0, config: 0, lexical: 0, none: 0 };
  const read = await readThreads(options);
  const empty = { objects: read.objects, threads: 0, comments: 0, tasks: [], classes };
  if (read.fatal !== null) return { diagnostics: [read.fatal], skips: read.skips, ...empty };
  const skips = [...read.skips];
  const diagnostics: Diagnostic[] = [];
  if (read.threads.length === 0) return { diagnostics, skips, ...empty };

  const threads = await atProjectRoot(root, read.threads, skips);
  const markdown = await loadMarkdown();
  const gitLines = await codeLinesFromGit(root, threads);
  const mapped: MappedThread[] = [];
  for (const t of threads) {
    const m = mapThread(t, markdown, gitLines.get(t.key) ?? null, { includeBots: options.includeBots, since: options.since });
    if (isSkip(m)) skips.push(m);
    else mapped.push(m);
  }

  const { config, diagnostics: configDiagnostics } = await loadConfig(worktreeFiles(root));
  diagnostics.push(...configDiagnostics);
  const rules = compileRules(config.importClasses);
  for (const problem of rules.problems)
    diagnostics.push(
      diagnostic({ file: '.agents/config.json', line: 1, severity: 'warning', ruleId: 'config/invalid-setting', message: problem }),
    );
  const classOf = classify(
    mapped.map((m) => ({ key: m.source.thread, explicitClass: m.explicitClass, text: m.text, code: m.code })),
    rules.rules,
  );
  const applied = await appliedCommits(
    root,
    mapped.flatMap((m) =>
      m.suggestion === null || m.body.file === null
        ? []
        : [{ key: m.source.thread, commit: m.source.original_commit ?? m.source.commit, path: m.body.file, suggestion: m.suggestion }],
    ),
  );
  const ready: ReadyThread[] = mapped.map((m) => {
    const c = classOf.get(m.source.thread)!;
    classes[c.origin]++;
    return { ...m, body: { ...m.body, class: c.class }, appliedCommit: applied.get(m.source.thread) ?? null };
  });

  const byTask = new Map<string, ReadyThread[]>();
  for (const r of ready) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
  const tasks: TaskOutcome[] = [];
  const queue = [...byTask.keys()].sort(compareStrings);
  const worker = async (): Promise<void> => {
    for (let task = queue.shift(); task !== undefined; task = queue.shift()) {
      const threads = byTask.get(task)!;
      const outcome = await writeTask(root, task, threads, skips);
      if (outcome !== null) tasks.push(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, queue.length) }, worker));
  tasks.sort((a, b) => compareStrings(a.task, b.task));
  skips.sort((a, b) => a.line - b.line || compareStrings(a.what ?? '', b.what ?? '') || compareStrings(a.reason, b.reason));
  return {
    diagnostics,
    skips,
    objects: read.objects,
    threads: read.threads.length,
    comments: read.threads.reduce((n, t) => n + t.comments.length, 0),
    tasks,
    classes,
  };
}

/** Creates the task when it is missing, then appends what the export adds to its ledger. Null: the task belongs elsewhere. */
async function writeTask(root: string, task: string, threads: readonly ReadyThread[], skips: Skip[]): Promise<TaskOutcome | null> {
  const source = threads[0]!.taskSource;
  const current = await readTaskChecked(worktreeFiles(root), task);
  if (current.task?.source !== undefined && current.task.source !== source) {
    for (const t of threads)
      skips.push({
        line: 0,
        what: t.source.thread,
        reason: `task ${task} (${taskPath(task)}) stands for ${current.task.source}, not ${source}`,
      });
    return null;
  }
  // Not fsynced: a task file lost to a crash is made again by the next import, and its ledger (fsynced) holds every finding.
  if (current.task === null && current.diagnostics.length === 0)
    await updateTaskFile(root, task, (t) => t ?? { id: task, source, criteria: [] }, { durable: false });
  const { result } = await updateLedger(root, task, (state) => {
    const latest = new Map<string, string>();
    for (const e of state.events) if (e.type === 'updated' && (latest.get(e.finding_id) ?? '') < e.at) latest.set(e.finding_id, e.at);
    return planTask(task, threads, state.findings, latest);
  });
  return {
    task,
    filed: result.filed,
    updated: result.updated,
    resolved: result.resolved,
    unchanged: result.unchanged,
    older: result.older,
  };
}
