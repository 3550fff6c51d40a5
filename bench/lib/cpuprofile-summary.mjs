#!/usr/bin/env node
// Summarises a `node --cpu-prof` profile: wall time split into idle, GC, program, and self time
// per module (package name for node_modules, file for the project, node:internal grouped), so a
// profile of a bench subject can be read without a browser.
//   node bench/lib/cpuprofile-summary.mjs <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 25);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const deltas = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i += 1) {
  const id = prof.samples[i];
  self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0) / 1000);
}
const total = (prof.endTime - prof.startTime) / 1000;
const group = (n) => {
  const f = n.callFrame;
  if (
    f.functionName === '(garbage collector)' ||
    f.functionName === '(idle)' ||
    f.functionName === '(program)' ||
    f.functionName === '(root)'
  )
    return f.functionName;
  const url = f.url;
  if (!url) return '(native/builtin)';
  if (url.startsWith('node:')) return url;
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return `pkg ${m[1]}`;
  return url.replace(/^file:\/\//, '').replace(/^.*?\/(dist|bin|bench)\//, '$1/');
};
const byGroup = new Map();
const byFn = new Map();
for (const [id, ms] of self) {
  const n = byId.get(id);
  const g = group(n);
  byGroup.set(g, (byGroup.get(g) ?? 0) + ms);
  const k = `${n.callFrame.functionName || '(anonymous)'} ${g}:${n.callFrame.lineNumber + 1}`;
  byFn.set(k, (byFn.get(k) ?? 0) + ms);
}
// Category of a sample: walk from the leaf towards the root to the first frame that is either
// the module loader or the project's / a package's code. Loader frames and module top-level
// code (an anonymous function at line 0) count as module loading; otherwise the node internals
// passed on the way (child_process, fs, streams) name the cost, else the code's own module.
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const isLoader = (u) => u.startsWith('node:internal/modules/') || u === 'node:internal/vm' || u.startsWith('node:internal/source_map');
const category = (id) => {
  let internal = null;
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur);
    const { functionName: fn, url, lineNumber } = n.callFrame;
    if (['(garbage collector)', '(idle)', '(program)'].includes(fn)) return fn;
    if (!url) continue;
    if (isLoader(url)) return 'module loading (resolve, read, compile, link)';
    if (url.startsWith('node:')) {
      if (internal === null) {
        if (url.includes('child_process')) internal = 'spawning / talking to child processes';
        else if (url.includes('/fs') || url === 'node:fs') internal = 'file I/O';
        else if (url.includes('stream') || url.includes('net')) internal = 'pipes / streams';
        else if (url.includes('timers') || url.includes('process/task_queues')) internal = null;
      }
      continue;
    }
    if (fn === '' && lineNumber === 0 && !url.endsWith('bin/findings.js')) return 'module loading (top-level evaluation)';
    if (internal !== null) return internal;
    return `code: ${group(n)}`;
  }
  return internal ?? 'node internals (event loop, no JS caller)';
};
const byCat = new Map();
for (const [id, ms] of self) byCat.set(category(id), (byCat.get(category(id)) ?? 0) + ms);
console.log('\ntime by category (ms, each sample counted once):');
for (const [g, ms] of [...byCat].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(8)}  ${g}`);

const urls = new Set(prof.nodes.map((n) => n.callFrame.url).filter((u) => u && !u.startsWith('node:')));
console.log(`profile ${file}: ${total.toFixed(0)} ms sampled, ${urls.size} script files seen`);
console.log('\nself time by group (ms):');
for (const [g, ms] of [...byGroup].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(8)}  ${g}`);
console.log('\nself time by function (ms):');
for (const [g, ms] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(8)}  ${g}`);
const pkgs = [...new Set([...urls].map((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1]).filter(Boolean))].sort();
console.log(`\npackages with code in the profile: ${pkgs.join(', ')}`);
