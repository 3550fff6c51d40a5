#!/usr/bin/env bash
# Runs the test suite on each supported Node line (default: 20 22 24), with Node binaries from
# the npm registry's `node` package (`npm i node@24` puts one in node_modules/.bin), installed
# into a temp prefix — never into this repository. dist/ is plain JavaScript, built once here.
#   npm run test:node-lines                      # every line, whole suite
#   NODE_LINES="22 24" npm run test:node-lines -- test/kernel   # chosen lines, chosen files
# NODE_LINES_PREFIX=<dir> keeps the downloaded binaries between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${NODE_LINES_PREFIX:-$(mktemp -d)}"
[ -n "${NODE_LINES_PREFIX:-}" ] || trap 'rm -rf "$prefix"' EXIT
npm run --silent build
status=0
for line in ${NODE_LINES:-20 22 24}; do
  dir="$prefix/node$line"
  if [ ! -x "$dir/node_modules/.bin/node" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node@$line" >/dev/null
  fi
  echo "== Node $("$dir/node_modules/.bin/node" --version)"
  # First on PATH, so every child the suite starts (git hooks, npm, the bin) runs on it too.
  PATH="$dir/node_modules/.bin:$PATH" node node_modules/vitest/vitest.mjs run "$@" || status=1
done
exit $status
