#!/usr/bin/env bash
# A second `worldtune estimate` of the same database in a later sitting (about 80 minutes after the first,
# after the v10 picks collection and a CI run), to see how far the ratio moves between sittings on this
# machine, whose speed moved during the first (README, section 3). Written before it ran. A measurement:
# nothing else may run.
# Usage, from the repository root: bash docs/results/resnet50-hour-v10-xeon/recheck.sh WORK OUTDIR
set -euo pipefail
WORK=${1:?usage: recheck.sh WORK OUTDIR}
OUT=${2:?usage: recheck.sh WORK OUTDIR}
WT=${WORLDTUNE:-build/worldtune}
"$WT" estimate --network resnet50 --rounds 3 --threads 2 --db "$WORK/resnet50.db" > "$OUT/estimate2.md" 2> "$OUT/estimate2.log"
python3 docs/results/resnet50-hour-v8-zen5/libtorch_best_round.py "$OUT/estimate2.md" "$OUT/estimate2.log" 3 > "$OUT/estimate2_best_round.txt"
python3 docs/results/resnet50-hour-v8-zen5/libtorch_best_round.py "$OUT/estimate2.md" "$OUT/estimate2.log" 3 --without pool2d >> "$OUT/estimate2_best_round.txt"
