#!/usr/bin/env node
// The floor of `findings compile`: a fresh node process that reads every file under .agents/
// (the registry, finding artifacts, fixtures and, after a first compile, the compiled outputs a
// no-op compile compares with) and nothing else. Prints "<files> <bytes>".
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

let files = 0;
let bytes = 0;
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile()) {
      bytes += readFileSync(p).length;
      files += 1;
    }
  }
};
walk(path.join(process.argv[2], '.agents'));
process.stdout.write(`${files} ${bytes}\n`);
