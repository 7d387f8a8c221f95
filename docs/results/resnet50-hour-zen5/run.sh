#!/usr/bin/env bash
# Issue 22's end-to-end target: ResNet-50 tuned with `worldtune tune --network resnet50` for one hour of
# wall clock on this machine (the shipped world model, the default search space, 2 threads), then every
# subgraph's best re-measured beside libtorch in 3 rounds (`worldtune estimate`).
# A measurement: nothing else may run. Usage, from the repository root:
#   bash docs/results/resnet50-hour-zen5/run.sh WORK
# Resumes from WORK/resnet50.db, but the hour restarts with each invocation: a resumed run is no longer
# "one hour"; say so beside its numbers.
set -euo pipefail
WORK=${1:?usage: run.sh WORK}
WT=${WORLDTUNE:-build/worldtune}
mkdir -p "$WORK"
lscpu | grep 'Model name' > "$WORK/hardware.txt"; lscpu | grep -E '^CPU family|^Model:' | tr -s ' ' | paste -sd ' ' >> "$WORK/hardware.txt"
"$WT" tune --network resnet50 --trials 100000 --hours 1 --threads 2 --db "$WORK/resnet50.db" --quiet > "$WORK/tune.txt" 2> "$WORK/tune.log"
"$WT" estimate --network resnet50 --rounds 3 --threads 2 --db "$WORK/resnet50.db" > "$WORK/estimate.md" 2> "$WORK/estimate.log"
