#!/usr/bin/env bash
# The measurement sequence of docs/perf.md at one size: fill to TARGET records (resuming), then
# storage, probe (warm and cold), appends, two bursts (batch wait 100 ms and 20 ms) and the audit.
# Usage: perf/run-sequence.sh 1000000 [results-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: perf/run-sequence.sh TARGET [results-dir]}
results=${2:-perf/results}
run() { echo "== electoral-log perf $*" >&2; ./electoral-log perf "$@" --results "$results"; }
run fill --target "$target"
run storage
run probe
run appends
run burst
run burst --batch-wait-ms 20
run audit
