/**
 * Imports follow the directions ARCHITECTURE.md states ("Import directions"): the test reads the
 * layer table and the composition-root table from that section, reads every import of every .ts
 * file under src/, compiler/ and hooks/, and reports each import that breaks them. The document
 * is the allowlist: a new root is a reviewed edit of ARCHITECTURE.md, not of this file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './helpers/rule-ids.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Directions {
  /** layer → the layers it may import. */
  readonly layers: Map<string, Set<string>>;
  /** root file → what it may import beyond its layer: layer names or file paths. */
  readonly roots: Map<string, Set<string>>;
}

/** The rows of the Markdown tables in one `## ` section, cells with backticks removed. */
function sectionTables(markdown: string, heading: string): string[][][] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`ARCHITECTURE.md has no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  const tables: string[][][] = [];
  let current: string[][] | null = null;
  for (const line of markdown.slice(start, end === -1 ? undefined : end).split('\n')) {
    if (!line.startsWith('|')) {
      current = null;
      continue;
    }
    const cells = line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((c) => c.trim().replaceAll('`', ''));
    if (cells.every((c) => /^-+$/.test(c))) continue;
    if (current === null) {
      current = [];
      tables.push(current);
      continue; // the header row
    }
    current.push(cells);
  }
  return tables;
}

function readDirections(markdown: string): Directions {
  const [layerRows, rootRows] = sectionTables(markdown, 'Import directions');
  const list = (cell: string | undefined): Set<string> =>
    new Set(
      (cell ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    );
  return {
    layers: new Map((layerRows ?? []).map(([layer, , may]) => [layer as string, list(may)])),
    roots: new Map((rootRows ?? []).map(([file, may]) => [file as string, list(may)])),
  };
}

function layerOf(file: string): string {
  if (file.startsWith('src/cli/')) return 'cli';
  if (file.startsWith('src/')) return 'kernel';
  return file.slice(0, file.indexOf('/'));
}

/** Relative import specifiers of a module: static, re-exports, side-effect and `import()`. */
function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bfrom\s*['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)|^\s*import\s*['"](\.[^'"]+)['"]/gm)) {
    out.push((m[1] ?? m[2] ?? m[3]) as string);
  }
  return out;
}

function resolveImport(from: string, specifier: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '.ts');
}

interface Edge {
  readonly from: string;
  readonly to: string;
}

/** May `from` import something of `layer`, by its own layer or, for a root, by the root's allowance? */
function mayImportLayer(d: Directions, from: string, layer: string): boolean {
  return d.layers.get(layerOf(from))?.has(layer) === true || d.roots.get(from)?.has(layer) === true;
}

/** May `from` import the file `to`? */
function reaches(d: Directions, from: string, to: string): boolean {
  return mayImportLayer(d, from, layerOf(to)) || d.roots.get(from)?.has(to) === true;
}

/** The imports that break the directions, as readable lines. Pure. */
function violations(d: Directions, edges: readonly Edge[]): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    if (!reaches(d, from, to)) {
      out.push(`${from} -> ${to}: ${layerOf(from)} may not import ${layerOf(to)}`);
      continue;
    }
    const extra = d.roots.get(to);
    if (extra === undefined || from === to) continue;
    for (const target of extra) {
      const isFile = target.includes('/');
      // Importing a root means reaching what the root reaches: the importer must be allowed that too,
      if (!(isFile ? reaches(d, from, target) : mayImportLayer(d, from, target))) {
        out.push(`${from} -> ${to}: the composition root reaches ${target}, which ${layerOf(from)} may not import`);
      }
      // and what a root reaches beyond its layer never imports the root back (no cycle through it).
      if (isFile ? from === target : layerOf(from) === target && layerOf(from) !== layerOf(to)) {
        out.push(`${from} -> ${to}: imports back the composition root that loads it`);
      }
    }
  }
  return out;
}

const directions = readDirections(readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8'));

function projectEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(root)) {
    for (const spec of importsOf(readFileSync(path.join(root, file), 'utf8'))) edges.push({ from: file, to: resolveImport(file, spec) });
  }
  return edges;
}

describe('import boundaries (ARCHITECTURE.md, "Import directions")', () => {
  it('reads the layers and the composition roots from ARCHITECTURE.md', () => {
    expect([...directions.layers.keys()].sort()).toEqual(['cli', 'compiler', 'hooks', 'kernel']);
    expect([...directions.roots.keys()].sort()).toEqual(['src/index.ts', 'src/validate/index.ts']);
    expect(directions.layers.get('compiler')).toEqual(new Set(['compiler', 'kernel']));
  });

  it('every import of src/, compiler/ and hooks/ follows the stated directions', () => {
    const edges = projectEdges();
    expect(edges.length).toBeGreaterThan(500);
    expect(violations(directions, edges)).toEqual([]);
  });

  it('the leaf modules ARCHITECTURE.md names import nothing', () => {
    for (const leaf of ['src/rules/table.ts', 'src/text-position.ts', 'src/suggest.ts'])
      expect(importsOf(readFileSync(path.join(root, leaf), 'utf8'))).toEqual([]);
  });

  it('flags an import up the layers', () => {
    expect(violations(directions, [{ from: 'compiler/compile.ts', to: 'hooks/gate.ts' }])).toHaveLength(1);
    expect(violations(directions, [{ from: 'src/match/detector.ts', to: 'compiler/compile.ts' }])).toHaveLength(1);
    expect(violations(directions, [{ from: 'hooks/gate.ts', to: 'src/cli/main.ts' }])).toHaveLength(1);
    expect(violations(directions, [{ from: 'hooks/drift.ts', to: 'compiler/drift.ts' }])).toEqual([]);
  });

  it('lets a root reach only what ARCHITECTURE.md names for it', () => {
    expect(violations(directions, [{ from: 'src/validate/index.ts', to: 'compiler/validate-index.ts' }])).toEqual([]);
    expect(violations(directions, [{ from: 'src/validate/index.ts', to: 'compiler/compile.ts' }])).toHaveLength(1);
    expect(violations(directions, [{ from: 'src/index.ts', to: 'hooks/pre-commit.ts' }])).toEqual([]);
  });

  it('flags a kernel or compiler module importing a composition root (the old validate type cycle)', () => {
    expect(violations(directions, [{ from: 'src/review/validate.ts', to: 'src/validate/index.ts' }])).not.toEqual([]);
    expect(violations(directions, [{ from: 'compiler/validate-index.ts', to: 'src/validate/index.ts' }])).toHaveLength(1);
    expect(violations(directions, [{ from: 'hooks/pre-push.ts', to: 'src/validate/index.ts' }])).toEqual([]);
    expect(violations(directions, [{ from: 'src/cli/commands/validate.ts', to: 'src/validate/index.ts' }])).toEqual([]);
  });
});
