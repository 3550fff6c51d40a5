#!/usr/bin/env node
// `findings-compile [options]` is `findings compile [options]`.
// CommonJS, as bin/findings.js (bin/package.json).
'use strict';
const { runFullCli } = require('./full-cli.js');

// A rejection stays unhandled, as a top-level await left it: node prints it and exits 1.
void runFullCli('findings-compile', ['compile', ...process.argv.slice(2)]);
