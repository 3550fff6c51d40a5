/**
 * The in-memory registry document a writer mutates. Pure: no I/O.
 *
 * Why a line-slot model: the contract's writers "merge or append entries in memory"
 * (docs/contracts/registry.md#atomic-update-rule), and docs/registry.md#design requires that lines the writer cannot
 * parse are kept byte for byte where they stand. So the document keeps every physical line
 * (text + terminator) and only re-serializes lines that were replaced or appended.
 */
import type { RawLine } from '../jsonl.js';
import { joinLines } from '../jsonl.js';
import { stableLine } from '../json-stable.js';
import { REGISTRY_KEY_ORDER, type RegistryEntry } from '../types.js';
import { parseRegistry, type ParsedRegistry, type RegistryLine, type RegistryProblem } from './reader.js';

/** The view a mutation gets of the registry (see writer.ts `updateRegistry`). */
export interface RegistryDocument {
  /** Schema-valid entries in file order. */
  readonly entries: readonly RegistryLine[];
  /** Lines that are not valid entries (kept byte for byte). */
  readonly problems: readonly RegistryProblem[];
  /** The latest line with this id. */
  byId(id: string): RegistryLine | undefined;
  /** The active line with this dedup key, else the latest line with it. */
  byDedupKey(key: string): RegistryLine | undefined;
  /** Appends a new line (serialized in REGISTRY_KEY_ORDER). */
  append(entry: RegistryEntry): void;
  /** Replaces the line with this 1-based number; a semantically identical entry keeps the raw bytes. */
  replace(line: number, entry: RegistryEntry): void;
}

interface Slot {
  text: string;
  eol: string;
}

const BOM = '\uFEFF';

/** Serializes one entry as a registry line (no terminator). */
export function serializeEntry(entry: RegistryEntry): string {
  return stableLine(entry, REGISTRY_KEY_ORDER);
}

/** A mutable document over registry text; `text()` renders it back. */
export class MutableRegistry implements RegistryDocument {
  private readonly slots: Slot[];
  private readonly lineEntries = new Map<number, RegistryLine>();
  private readonly bom: boolean;
  private eol: string;
  private readonly original: string;
  readonly problems: readonly RegistryProblem[];
  private readonly idLines = new Map<string, number[]>();
  private readonly keyLines = new Map<string, number[]>();
  private dirtyFlag = false;
  private readonly written = new Set<number>();
  private cachedEntries: RegistryLine[] | null = null;

  constructor(text: string, parsed: ParsedRegistry = parseRegistry(text)) {
    this.original = text;
    this.bom = text.startsWith(BOM);
    this.slots = parsed.lines.map((l) => ({ text: l.text, eol: l.eol }));
    for (const e of parsed.entries) {
      this.lineEntries.set(e.line, e);
      this.index(e, true);
    }
    this.problems = parsed.problems;
    // New lines follow the file's own terminator style (CRLF files stay CRLF).
    this.eol = parsed.lines.find((l) => l.eol !== '')?.eol ?? '\n';
  }

  /** A copy that can be mutated without affecting this one (used to dry-run a batch). */
  clone(): MutableRegistry {
    // Reuses this document's parse (no second pass over a large file).
    const c = new MutableRegistry(this.original, { lines: [], entries: [], problems: this.problems });
    c.slots.length = 0;
    for (const slot of this.slots) c.slots.push({ ...slot });
    for (const e of this.lineEntries.values()) {
      c.lineEntries.set(e.line, e);
      c.index(e, true);
    }
    c.dirtyFlag = this.dirtyFlag;
    for (const n of this.written) c.written.add(n);
    c.eol = this.eol;
    return c;
  }

  get entries(): readonly RegistryLine[] {
    this.cachedEntries ??= [...this.lineEntries.values()].sort((a, b) => a.line - b.line);
    return this.cachedEntries;
  }

  get dirty(): boolean {
    return this.dirtyFlag;
  }

  byId(id: string): RegistryLine | undefined {
    const lines = this.idLines.get(id);
    return lines === undefined ? undefined : this.lineEntries.get(lines[lines.length - 1]!);
  }

  byDedupKey(key: string): RegistryLine | undefined {
    const lines = this.keyLines.get(key);
    if (lines === undefined) return undefined;
    for (const n of lines) {
      const e = this.lineEntries.get(n)!;
      if (e.entry.status === 'active') return e;
    }
    return this.lineEntries.get(lines[lines.length - 1]!);
  }

  /** Keeps the id and dedup-key indexes current, so lookups stay O(1) during large batches. */
  private index(line: RegistryLine, add: boolean): void {
    for (const [map, key] of [
      [this.idLines, line.entry.id],
      [this.keyLines, line.entry.dedup_key],
    ] as const) {
      const list = map.get(key) ?? [];
      if (add) {
        let i = list.length;
        while (i > 0 && list[i - 1]! > line.line) i -= 1;
        list.splice(i, 0, line.line);
        map.set(key, list);
      } else {
        const i = list.indexOf(line.line);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0) map.delete(key);
      }
    }
  }

  private put(line: RegistryLine): void {
    const old = this.lineEntries.get(line.line);
    if (old) this.index(old, false);
    this.lineEntries.set(line.line, line);
    this.index(line, true);
    this.cachedEntries = null;
    this.dirtyFlag = true;
  }

  /** Appends a new line; returns its 1-based line number. */
  append(entry: RegistryEntry): number {
    // A last line without a terminator gets one before the new line (joinLines does it).
    const text = serializeEntry(entry);
    const raw: RawLine = { line: this.slots.length + 1, text, eol: this.eol };
    this.slots.push({ text, eol: this.eol });
    this.put({ line: raw.line, entry: structuredClone(entry), raw });
    this.written.add(raw.line);
    return raw.line;
  }

  /** The valid entry on this 1-based line, if any. */
  entryAt(line: number): RegistryLine | undefined {
    return this.lineEntries.get(line);
  }

  /** Returns whether the line's content changed. */
  replace(line: number, entry: RegistryEntry): boolean {
    const slot = this.slots[line - 1];
    if (slot === undefined) throw new RangeError(`registry has no line ${line}`);
    const text = serializeEntry(entry);
    const current = this.lineEntries.get(line);
    // Unchanged content keeps its raw bytes, whatever key order or spacing it was written with.
    if (current !== undefined && serializeEntry(current.entry) === text) return false;
    if (current === undefined && slot.text === text) return false;
    slot.text = text;
    const raw: RawLine = { line, text, eol: slot.eol === '' ? this.eol : slot.eol };
    this.put({ line, entry: structuredClone(entry), raw });
    this.written.add(line);
    return true;
  }

  /** The lines this document wrote (appended or replaced), as serialized, in line order. */
  writtenLines(): { line: number; text: string }[] {
    return [...this.written].sort((x, y) => x - y).map((line) => ({ line, text: this.slots[line - 1]!.text }));
  }

  /** The full file content. Unchanged documents return the original text exactly. */
  text(): string {
    if (!this.dirtyFlag) return this.original;
    const body = joinLines(this.slots);
    return this.bom ? BOM + body : body;
  }
}
