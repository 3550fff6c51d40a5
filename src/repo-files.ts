/**
 * Where repository content comes from: the working tree, the index (staged content), or a
 * commit. Commands that must judge "what will be committed" (hooks) or "what was pushed"
 * (pre-push, CI ranges) read through this interface instead of the file system.
 */
import type { Dirent } from 'node:fs';
import { fsPromises } from './lazy-builtins.js';
import path from 'node:path';
import { indexEntries, readObjects, treeEntries, type BlobEntry } from './git/core.js';
import { isNotFound } from './fs/atomic.js';
import { compareStrings } from './diagnostics.js';

export interface RepoFiles {
  /** `worktree`, `index` or `commit:<sha>` — for messages. */
  readonly label: string;
  /** Regular files and symlinks under a folder (repository-relative, `/`-separated), sorted. */
  list(dir: string): Promise<string[]>;
  /** A file's bytes (a symlink's link text), or null when absent. */
  read(file: string): Promise<Buffer | null>;
  /** Optional batching hint: load these files in one go before reading them one by one. */
  prefetch?(files: readonly string[]): Promise<void>;
  /** The working tree's absolute root (worktree sources only), for symlink containment checks. */
  readonly root?: string;
  /** A file's git mode (`100644`, `100755`, `120000` = symlink), or null when absent (git sources only). */
  mode?(file: string): Promise<string | null>;
}

/** The working tree under `root`. */
export function worktreeFiles(root: string): RepoFiles {
  return {
    label: 'worktree',
    root,
    async list(dir) {
      const out: string[] = [];
      async function walk(rel: string): Promise<void> {
        let entries: Dirent[];
        try {
          entries = await fsPromises().readdir(path.join(root, rel), { withFileTypes: true });
        } catch (error) {
          if (isNotFound(error) || (error as { code?: string }).code === 'ENOTDIR') return;
          throw error;
        }
        for (const e of entries) {
          const child = rel ? `${rel}/${e.name}` : e.name;
          if (e.isDirectory()) await walk(child);
          else if (e.isFile() || e.isSymbolicLink()) out.push(child);
        }
      }
      await walk(dir.replace(/\/+$/, ''));
      return out.sort(compareStrings);
    },
    async read(file) {
      const abs = path.join(root, file);
      try {
        const st = await fsPromises().lstat(abs);
        if (st.isSymbolicLink()) return Buffer.from(await fsPromises().readlink(abs), 'utf8');
        // A folder (or a socket…) where a file should be is unreadable input, not a missing file.
        if (!st.isFile())
          throw Object.assign(new Error(`${file} is not a regular file`), { code: st.isDirectory() ? 'EISDIR' : 'EINVAL', path: file });
        return await fsPromises().readFile(abs);
      } catch (error) {
        if (isNotFound(error)) return null;
        if ((error as { code?: string }).code === 'ENOTDIR')
          throw Object.assign(new Error(`${file}: a parent folder is a file`), { code: 'ENOTDIR', path: file });
        throw error;
      }
    },
  };
}

/** Reads many files at once: blob-backed sources fetch them with one cat-file process. */
export async function readMany(source: RepoFiles, files: readonly string[]): Promise<Map<string, Buffer | null>> {
  if (source.prefetch) await source.prefetch(files);
  const out = new Map<string, Buffer | null>();
  for (const f of files) out.set(f, await source.read(f));
  return out;
}

/**
 * A file with its content: a path (repository-relative, `/`-separated) and its bytes (a
 * symlink's link text), as a file source or the hooks' collection read it (ARCHITECTURE.md,
 * "Vocabulary").
 */
export interface FileContent {
  readonly path: string;
  /** The content; empty for a `check --all` file no constraint can report anything in, left unread (hooks/blob-selection.ts). */
  readonly data: Buffer;
  /** The old path, when a change renames or copies the file (hooks/sources.ts). */
  readonly oldPath?: string;
}

function gitSource(root: string, label: string, load: () => Promise<BlobEntry[]>, known: readonly FileContent[] = []): RepoFiles {
  const cache = new Map<string, Buffer | null>(known.map((f) => [f.path, f.data]));
  let byPath: Map<string, BlobEntry> | null = null;
  const entries = async (): Promise<Map<string, BlobEntry>> => {
    // Submodules (mode 160000) are not files of this repository.
    byPath ??= new Map((await load()).filter((e) => e.mode !== '160000').map((e) => [e.path, e]));
    return byPath;
  };
  const prefetch = async (files: readonly string[]): Promise<void> => {
    const map = await entries();
    const wanted = files.filter((f) => !cache.has(f));
    const objects = await readObjects(
      root,
      wanted.flatMap((f) => (map.has(f) ? [map.get(f)!.sha] : [])),
    );
    for (const f of wanted) {
      const e = map.get(f);
      cache.set(f, e ? (objects.get(e.sha) ?? null) : null);
    }
  };
  return {
    label,
    async list(dir) {
      const prefix = `${dir.replace(/\/+$/, '')}/`;
      return [...(await entries()).keys()].filter((p) => p.startsWith(prefix)).sort(compareStrings);
    },
    async read(file) {
      if (!cache.has(file)) await prefetch([file]);
      return cache.get(file) ?? null;
    },
    prefetch,
    async mode(file) {
      return (await entries()).get(file)?.mode ?? null;
    },
  };
}

/**
 * The git index (staged content): what `git commit` will record (honours GIT_INDEX_FILE). `known`
 * files are the index's own blobs already read (the staged snapshot, hooks/snapshot.ts): they are not read again.
 */
export function indexFiles(root: string, known: readonly FileContent[] = []): RepoFiles {
  return gitSource(root, 'index', () => indexEntries(root), known);
}

/** The tree of a commit. */
export function commitFiles(root: string, commit: string): RepoFiles {
  return gitSource(root, `commit:${commit.slice(0, 12)}`, () => treeEntries(root, commit));
}
