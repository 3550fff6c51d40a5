/** The export reader (src/import/json-stream.ts): every shape `gh api --paginate` prints, read as a stream. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExportSyntaxError, readExportObjects, type ExportItem } from '../../src/import/json-stream.js';
import { FIXTURES } from '../helpers/repo.js';

const REST = path.join(FIXTURES, 'import/github-rest');

async function* chunksOf(text: string | Buffer, size: number): AsyncGenerator<Buffer> {
  const buf = typeof text === 'string' ? Buffer.from(text) : text;
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function read(text: string | Buffer, size = 1 << 16, maxObjectBytes?: number): Promise<ExportItem[]> {
  const out: ExportItem[] = [];
  for await (const item of readExportObjects(chunksOf(text, size), maxObjectBytes === undefined ? {} : { maxObjectBytes })) out.push(item);
  return out;
}

const ids = (items: ExportItem[]): unknown[] => items.map((i) => (i.kind === 'object' ? (i.value as { id: unknown }).id : i.kind));

describe('readExportObjects', () => {
  it('reads the same comments from one array, arrays back to back, --slurp and JSON Lines', async () => {
    const variants = ['one-array.json', 'paginated.json', 'slurp.json', 'lines.jsonl'];
    const read1 = await Promise.all(variants.map(async (v) => ids(await read(readFileSync(path.join(REST, v))))));
    expect(read1[0]).toEqual([1001, 1002, 1003, 2001, 2002, 2003, 3001, 3002]);
    for (const r of read1) expect(r).toEqual(read1[0]);
  });

  it('gives the same objects whatever the chunk size, even one byte at a time (strings and escapes cut anywhere)', async () => {
    const text = '[{"a":"x\\"}]{\\\\","b":[1,{"c":"]"}]}]\n{"a":"é😀"}\r\n';
    const whole = await read(text);
    expect(whole.map((i) => (i.kind === 'object' ? i.value : null))).toEqual([{ a: 'x"}]{\\', b: [1, { c: ']' }] }, { a: 'é😀' }]);
    for (const size of [1, 2, 3, 7]) expect(await read(text, size)).toEqual(whole);
  });

  it('names the line each object starts on', async () => {
    const items = await read('[\n  {"id": 1},\n  {\n    "id": 2\n  }\n]\n[{"id": 3}]\n');
    expect(items.map((i) => i.line)).toEqual([2, 3, 7]);
  });

  it('skips a value that is not an object, with its line, and reads on', async () => {
    const items = await read('[1, "two", null, {"id": 3}]\ntrue\n{"id": 4}');
    expect(items.map((i) => [i.kind, i.line])).toEqual([
      ['problem', 1],
      ['problem', 1],
      ['problem', 1],
      ['object', 1],
      ['problem', 2],
      ['object', 3],
    ]);
  });

  it('refuses what cannot be JSON, naming the line', async () => {
    await expect(read('[{"id": 1}]\n<html>')).rejects.toMatchObject({ line: 2, message: 'not JSON: unexpected "<"' });
    await expect(read('\n\n{"id": 1,}')).rejects.toMatchObject({ line: 3, message: expect.stringContaining('not valid JSON') });
    await expect(read('[{"id": 1}')).rejects.toBeInstanceOf(ExportSyntaxError);
    await expect(read('[{"id": 1}')).rejects.toMatchObject({ message: 'the export ends inside an array (a cut download?)' });
    await expect(read('{"id": "cut')).rejects.toMatchObject({ message: 'the export ends inside an object (a cut download?)' });
    await expect(read(']')).rejects.toMatchObject({ line: 1, message: 'unexpected "]" with no array open' });
    await expect(read(Buffer.from([0x5b, 0x00]))).rejects.toMatchObject({ message: 'not JSON: unexpected control character U+0000' });
  });

  it('refuses an object larger than the limit instead of holding it', async () => {
    const big = `[{"id": 1}, {"body": "${'x'.repeat(5000)}"}]`;
    await expect(read(big, 256, 1024 * 1024)).resolves.toHaveLength(2);
    await expect(read(big, 256, 1000)).rejects.toMatchObject({ line: 1, message: expect.stringContaining('larger than') });
  });

  it('drops a UTF-8 byte order mark before the first value', async () => {
    expect(ids(await read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"id":1}]')])))).toEqual([1]);
  });
});
