#!/usr/bin/env bash
# Rebuilds this repository's own .agents/ (docs/dogfood.md) from its sources, with the commands a
# user would run. Safe to re-run: every step is idempotent; `setup.sh --fresh` first removes the
# index and the measurements, for a change of the index format or of constraint ids. Then commit .agents/.
#
#   1. findings add: the registry lines in scripts/dogfood/findings.jsonl (lessons of this
#      repository's history); merged by dedup_key, so re-adding changes nothing.
#   2. findings-compile: promotes new lines to .agents/findings/<id>.md (an existing artifact is the
#      source of truth and is never overwritten: f-2026-12-01-002 and -003 were edited once, by
#      hand, to detectability "mechanical" with a compiler: block and fixtures), compiles planning
#      rules, pre-mortem checks and the constraint index.
#   3. findings constraint measure: replays every shadow constraint over the whole history of HEAD.
#   4. label + activate the write-file-atomic constraint while it is a shadow: its one distinct hit
#      (8a1d1bf3:src/fs/atomic.ts:5) is labelled true from scripts/dogfood/labels-*.txt. History
#      holds a single hit, hence activation.min_labelled_hits = 1 in .agents/config.json.
#      The unified/remark constraint has no hit in history (the lesson was measured before hooks/
#      existed), so it cannot be labelled and stays a warning-only shadow.
#   5. findings-compile --check and findings validate: everything current and valid.
set -euo pipefail
cd "$(dirname "$0")/../.."
findings() { node bin/findings.js "$@"; }

# --fresh: rebuild the index and the measurements from nothing (after a change of the index format
# or of constraint ids): the lifecycle below then measures, labels and activates again.
if [ "${1:-}" = --fresh ]; then
  rm -rf .agents/constraints/index.json .agents/constraints/measurements
fi

findings add --file scripts/dogfood/findings.jsonl
node bin/findings-compile.js --root .
findings constraint measure

# The constraint id of a finding and its status, read from the index (robust to how ids are spelled).
constraint_of() {
  node -e '
    const index = JSON.parse(require("fs").readFileSync(".agents/constraints/index.json", "utf8"));
    const c = index.constraints.find((e) => e.finding_id === process.argv[1]);
    if (!c) { console.error(`no constraint for ${process.argv[1]}`); process.exit(1); }
    console.log(`${c.id} ${c.status}`);
  ' "$1"
}

finding=f-2026-12-01-003
read -r id status < <(constraint_of "$finding")
if [ "$status" = shadow ]; then
  findings constraint label "$id" --from "scripts/dogfood/labels-$finding.txt"
  findings constraint activate "$id"
fi

node bin/findings-compile.js --root . --check
findings validate
echo "dogfood: .agents/ is current; commit it (git add .agents)"
