// Runs the findings bin in this process and prints its peak resident set size (KB) on stderr
// when it exits: `node peak-rss.mjs <bin> <args…>` (test/lifecycle/memory.test.ts).
// The peak is VmHWM, this process image's own high-water mark. Not resourceUsage().maxRSS: Linux
// carries maxrss across fork and exec, so a child spawned by a large test runner reports the
// runner's size, whatever the child itself did.
import { readFileSync } from 'node:fs';

function peakKb() {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // not Linux: fall back below
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => process.stderr.write(`\nPEAK_RSS_KB=${peakKb()}\n`));
const [bin, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], bin, ...args];
await import(bin);
