#!/usr/bin/env bash
# The measured sequence behind docs/perf.md (issue 17's targets), on one fresh stack in WORK, one
# command after the other; each result and steps.txt (the clock time each command started and
# ended) go to RESULTS. To make the page from it: copy RESULTS over perf/baseline (keep its
# notes.md) and run ./electoral-log perf report. About 35 minutes and 33 GB on 2 cores (plan 40 GB).
# Usage: perf/run-sequence.sh WORK [RESULTS]   (RESULTS defaults to perf/results/sequence-<commit>)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:?usage: perf/run-sequence.sh WORK [RESULTS]}
results=${2:-perf/results/sequence-$(git rev-parse --short HEAD)}
mkdir -p "$results"
steps="$results/steps.txt"
run() {
  echo "$(date +%T) start $*" >> "$steps"
  ./electoral-log perf "$@" --work "$work" --results "$results"
  echo "$(date +%T) end rc=0 $*" >> "$steps"
}
run fill --target 5000000
run probe --repeats 500
run fill --target 20000000
echo "$(date +%T) du $(du -sh "$work" | cut -f1)" >> "$steps"
run storage
run probe --repeats 500
run burst --voters 5000
run fill --signed --target 500000
run rebuild
run audit
echo "$(date +%T) du $(du -sh "$work" | cut -f1)" >> "$steps"
