#!/usr/bin/env bash
# Val-list search at 64 trials (measures: a quiet machine), 12 val workloads x SEEDS, interleaved
# (scripts/val_search_knobs.sh; resumable), then every run's best re-measured side by side. Run train.sh
# with the same WORKDIR first.
#   P8: the shipped product (models/world, search space v8, the default search);
#   Q8: the candidate product: the rankers retrained with the world model's v7 and v8 picks (train.sh,
#       bundle D8), searching the same space v8.
# Why: the shipped rankers (D4) learned v4 schedules; in v8 the search reaches weights stored in blocks,
# strided 1x1 inputs read through a subsampled copy and register-fill tiles that they never saw measured.
# In docs/results/issue22-v8full-zen5 the model's lead over random search shrank (random@64 0.796x of the
# best at 640 trials, 0.697x in v6), and on layernorm random@64 beat world@640. v4 went this way once:
# 1.007x with the old rankers, 1.023x once they had learned the model's own v4 picks (v4-picks-zen5).
# The rule, written before any seed ran: Q8 becomes the product (models/world's world, initial and actions
# rankers become D8's) if Q8 over P8 at 64 trials, re-measured side by side (worldtune remeasure, 3
# rounds), is above 1.0 with the bootstrap interval's lower bound above 0.98, and the mean of its as-tuned
# values at 32, 48 and 64 trials is not below 1. Judged on seeds 1-3; with fewer than 3, nothing ships.
# Otherwise the data and this report are committed and nothing else changes.
# Usage: [SEEDS="1 2 3"] bash docs/results/v8-picks-zen5/run.sh WORKDIR
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs P8 8,16,32,48,64 Q8
#        python3 scripts/val_remeasured_summary.py WORKDIR/runs P8 Q8
set -euo pipefail
work=$(cd "${1:?give a work folder}" && pwd)
[ -d "$work/bundles/D8" ] || { echo "run.sh: no bundle $work/bundles/D8 (run train.sh first)" >&2; exit 2; }
seeds=${SEEDS:-1 2 3}
printf "P8 --model world --space v8\nQ8 --model world --bundle $work/bundles/D8 --space v8\n" > "$work/configs.txt"
SEEDS="$seeds" TRIALS=64 bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
bash scripts/val_remeasure.sh "$work/runs" 64 "$seeds"
