// Runs the findings bin in this process and prints its peak resident set size (KB) on stderr
// when it exits: `node peak-rss.mjs <bin> <args…>` (test/lifecycle/memory.test.ts).
process.on('exit', () => process.stderr.write(`\nPEAK_RSS_KB=${process.resourceUsage().maxRSS}\n`));
const [bin, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], bin, ...args];
await import(bin);
