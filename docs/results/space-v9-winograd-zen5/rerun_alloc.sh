#!/usr/bin/env bash
# The same comparison and ResNet-50 estimate re-measured after worldtune's measuring worker got the allocator
# setting every peer's process always had (use_timing_allocator, src/measure/Timing.h): before, a large
# intermediate buffer of a schedule was mapped and unmapped on every run, and the same Winograd schedule read
# 0.42 ms in one worker and 2.5 ms in the next (probes/probe.sh). Nothing is tuned again; the bests the runs
# found (with the old worker) are re-measured, 3 rounds. Written before it ran. A measurement: nothing else may run.
# Usage, from the repository root: bash docs/results/space-v9-winograd-zen5/rerun_alloc.sh WORK
set -euo pipefail
WORK=${1:?usage: rerun_alloc.sh WORK}
OUT=docs/results/space-v9-winograd-zen5
WT=${WORLDTUNE:-build/worldtune}
SPECS="conv2d:N=1,C=64,H=56,W=56,K=64,R=3,S=3,pad=1,bias=1,act=relu conv2d:N=1,C=128,H=28,W=28,K=128,R=3,S=3,pad=1,bias=1,act=relu conv2d:N=1,C=256,H=14,W=14,K=256,R=3,S=3,pad=1,bias=1,act=relu conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu"
bash $OUT/probes/probe.sh "$WORK/probes.db"
# shellcheck disable=SC2086
"$WT" compare $SPECS --models random/v8,random/v9,world/v8,world/v9 --trials 8,16,32,64 --seeds 1 --rounds 3 \
  --peers onednn,libtorch --threads 2 --db "$WORK/v9.db" --out "$OUT/compare-allocator.md" > "$WORK/rerun_alloc.log" 2>&1
"$WT" estimate --network resnet50 --rounds 3 --threads 2 --db "$WORK/resnet50-v9.db" > "$OUT/estimate6.md" 2> "$OUT/estimate6.log"
python3 docs/results/resnet50-hour-v8-zen5/libtorch_best_round.py "$OUT/estimate6.md" "$OUT/estimate6.log" 3 > "$OUT/estimate6_best_round.txt"
echo rc=0
