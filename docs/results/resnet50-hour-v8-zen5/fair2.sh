#!/usr/bin/env bash
# A fourth `worldtune estimate` of the same database, with the schedules in the rounds warmed up as long as
# libtorch (side_by_side_measure, since 2026-12-07, later; fair.sh's estimate3 warmed libtorch for 0.25 s
# and the schedules for one run): estimate4.md, estimate4.log. Written before it ran. A measurement:
# nothing else may run.
# Usage, from the repository root: bash docs/results/resnet50-hour-v8-zen5/fair2.sh WORK OUTDIR
set -euo pipefail
WORK=${1:?usage: fair2.sh WORK OUTDIR}
OUT=${2:?usage: fair2.sh WORK OUTDIR}
WT=${WORLDTUNE:-build/worldtune}
"$WT" estimate --network resnet50 --rounds 3 --threads 2 --db "$WORK/resnet50.db" > "$OUT/estimate4.md" 2> "$OUT/estimate4.log"
python3 docs/results/resnet50-hour-v8-zen5/libtorch_best_round.py "$OUT/estimate4.md" "$OUT/estimate4.log" 3 > "$OUT/estimate4_best_round.txt"
python3 docs/results/resnet50-hour-v8-zen5/libtorch_best_round.py "$OUT/estimate4.md" "$OUT/estimate4.log" 3 --without pool2d >> "$OUT/estimate4_best_round.txt"
python3 docs/results/resnet50-hour-v8-zen5/peak_bound.py "$OUT/estimate4.md" 435.2 > "$OUT/peak_bound4.txt"
