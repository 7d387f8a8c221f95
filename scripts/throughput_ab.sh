#!/usr/bin/env bash
# Scoring throughput of several worldtune builds side by side: each run times every build's
# `worldtune eval --quick` once, interleaved, and OUT gets a line `BUILD FIRST_SIGHT AGAIN` (candidates/s)
# per build and run; the medians over the runs are printed at the end. One timing on two shared cores
# swings by a third, so compare medians of many runs, never one. A build may name a bundle after an @
# (default: the build's shipped models/world), to compare bundles with one build. Usage, from the
# repository root on a quiet machine (about 3 s per build and run):
#   RUNS=10 bash scripts/throughput_ab.sh OUT.txt NAME=PATH/TO/worldtune[@BUNDLE] NAME=PATH/TO/worldtune ...
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: throughput_ab.sh OUT.txt NAME=WORLDTUNE..." >&2; exit 2; }
OUT=$1; shift
RUNS=${RUNS:-10}; DATASET=${DATASET:-data/dataset-xeon.jsonl.gz}; SPLIT=${SPLIT:-val}
for build in "$@"; do
  bin=${build#*=}; bin=${bin%%@*}
  [ -x "$bin" ] || { echo "throughput_ab: $bin is not an executable" >&2; exit 2; }
done
REPORT=$(mktemp); trap 'rm -f "$REPORT"' EXIT
for run in $(seq 1 "$RUNS"); do
  for build in "$@"; do
    name=${build%%=*}; bin=${build#*=}; bundle=()
    [[ "$bin" == *@* ]] && { bundle=(--bundle "${bin#*@}"); bin=${bin%%@*}; }
    "$bin" eval --dataset "$DATASET" --split "$SPLIT" --quick --threads 2 "${bundle[@]}" --out "$REPORT" > /dev/null 2>&1 ||
      { echo "throughput_ab: $name failed on run $run" >&2; exit 1; }
    line=$(grep -o "world model [0-9]* candidates/s on first sight.*candidates/s scoring" "$REPORT" | head -1)
    echo "$name $(echo "$line" | awk '{print $3, $(NF-2)}')" >> "$OUT"
  done
done
python3 - "$OUT" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, first, again = line.split()
    runs.setdefault(name, ([], []))
    runs[name][0].append(float(first)); runs[name][1].append(float(again))
for name, (first, again) in runs.items():
    print(f"{name}: first sight median {statistics.median(first):.0f} candidates/s, again {statistics.median(again):.0f} ({len(first)} runs)")
PY
